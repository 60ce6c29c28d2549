/** The tool's own failures: a message for the model and a code for logs and traces. */
export class RetrievalError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}
