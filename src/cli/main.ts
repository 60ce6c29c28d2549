#!/usr/bin/env node
/** The `mcp-prompt-kit` command: check, list, render, serve prompt files and describe them as OpenAPI. */
import { runCli } from './run.js';

process.exitCode = await runCli(process.argv.slice(2));
