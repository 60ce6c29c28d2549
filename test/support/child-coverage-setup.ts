/**
 * vitest setup file: when the run measures coverage, every child process a test starts with this process's
 * environment loads test/support/child-coverage.mjs, so the src/ code it runs counts in the run's coverage.
 */
import { childCoverageEnv } from './processes.js';

Object.assign(process.env, childCoverageEnv());
