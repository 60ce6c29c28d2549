// Reads a JSON array of YAML texts on stdin; prints whether WebAssembly is there and what parseYamlSource reads.
import { parseYamlSource } from '../../src/fs/yaml-source.js';

let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
const texts = JSON.parse(input) as string[];
const read = texts.map((text) => {
  const source = parseYamlSource(text);
  return 'value' in source ? { value: source.value, at: source.locate('/k') } : source;
});
process.stdout.write(JSON.stringify({ webAssembly: typeof WebAssembly, read }));
