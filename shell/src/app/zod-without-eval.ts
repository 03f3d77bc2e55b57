// The pages' Content-Security-Policy forbids eval (scripts/serve/security-headers.ts). zod compiles
// object parsers with `new Function` when it may, and finds out by calling `Function('')` once,
// which the browser blocks and reports as a violation. jitless skips both the probe and the
// compiled parsers.
//
// zod keeps its configuration in one object on globalThis (`__zod_globalConfig`), which every
// copy of zod on the page adopts when it is first evaluated (`globalThis.__zod_globalConfig ??=
// {}`) and reads at parse time. Writing `jitless` there ourselves, instead of calling
// `z.config()`, keeps zod out of the shell's first load (only the sign-in pages and some remote
// forms use it) while still holding for every copy of zod, the shell's and the remotes', loaded
// before or after. Imported first by bootstrap.tsx, before anything parses;
// zod-without-eval.test.ts checks that zod honours it.
type ZodGlobal = typeof globalThis & { __zod_globalConfig?: Record<string, unknown> };

const zodGlobal = globalThis as ZodGlobal;
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;

export {};
