/**
 * The example app as a CGI/1.1 script: a web server (Apache `ScriptAlias`, nginx + fcgiwrap, lighttpd) runs it once
 * per request with the CGI environment and the body on stdin, e.g. `PATH_INFO=/functions/Add REQUEST_METHOD=POST`.
 */
import { runCgi } from 'mcp-prompt-kit/http';
import { createExampleFunctions, createExampleRegistry } from './functions/app.js';

await runCgi({ prompts: createExampleRegistry(), functions: createExampleFunctions() });
