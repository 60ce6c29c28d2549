// Express 4 (installed as the `express4` alias) has the same surface as Express 5 for what the tests use.
declare module 'express4' {
  import express from 'express';
  export default express;
}
