import { PromptRegistry } from '/work/main/dist/index.js';
const { sameShapeCatalogue } = await import('/work/main/bench/fixtures.ts');
const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
for (let r = 0; r < 4; r++) {
  const defs = sameShapeCatalogue(10000);
  const before = heap();
  const t = performance.now();
  const reg = new PromptRegistry();
  reg.add(defs);
  const ms = performance.now() - t;
  const after = heap();
  console.log('ms', ms.toFixed(0), 'KB/prompt', ((after - before) / 10000 / 1024).toFixed(2), reg.size);
}
