// zod compiles object parsers with new Function() when it may, and finds out by trying once, when
// the first object schema is defined; the page's Content-Security-Policy (no 'unsafe-eval')
// refuses, which browsers report as a policy violation (Lighthouse's "Content security policy"
// issue). Without eval the interpreted parsers are what runs anyway: say so before any schema
// exists. zod reads its settings from this global (node_modules/zod/v4/core/core.js), so setting
// it needs no import of zod: the entry (main.tsx) runs this first, whichever chunk zod and the
// schemas end up in and whatever order those chunks are evaluated in.
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(holder.__zod_globalConfig ??= {}).jitless = true;

export {};
