import {
  PromptError,
  buildErrorResponse,
  buildSuccessResponse,
  errorResponseFor,
  toCallToolResult,
} from 'mcp-prompt-kit';

const show = (value: unknown): void => console.log(JSON.stringify(value));

show(buildSuccessResponse([42])); // {"result":42}
show(buildSuccessResponse([10, 20])); // {"result0":10,"result1":20}
show(buildSuccessResponse([10, undefined])); // {"result0":10,"result1":null}
show(buildSuccessResponse([])); // {}
show(buildErrorResponse('Invalid JSON body')); // {"error":"Invalid JSON body"}
show(errorResponseFor(new PromptError('PROMPT_NOT_FOUND', 'Unknown prompt: x'))); // {"status":404,"body":{"error":"Unknown prompt: x"}}
show(errorResponseFor(new TypeError('db password rejected'))); // {"status":500,"body":{"error":"Internal error"}}
show(toCallToolResult({ result: 42 })); // {"content":[{"type":"text","text":"{\"result\":42}"}],"structuredContent":{"result":42}}
show(toCallToolResult({ error: new Error('x must be a number') }).content); // [{"type":"text","text":"{\"error\":\"x must be a number\"}"}]
show(toCallToolResult({ error: new Error('db password rejected') }, { maskErrors: true }).content); // [{"type":"text","text":"{\"error\":\"Internal error\"}"}]
