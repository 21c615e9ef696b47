import * as z from 'zod';

// zod compiles object parsers with new Function() when it may, and finds out by trying once, when
// the first object schema is defined; the page's Content-Security-Policy (no 'unsafe-eval')
// refuses, which browsers report as a policy violation. Without eval the interpreted parsers are
// what runs anyway: say so before any schema exists (validators.ts imports this module first).
z.config({ jitless: true });
