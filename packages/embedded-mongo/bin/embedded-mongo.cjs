#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so the package needs no build step.
require('tsx/cjs');
require('../src/cli.ts');
