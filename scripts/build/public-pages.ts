/**
 * The pages prerendered at build time (issue 17: the first paint must not wait for JavaScript):
 * the public ones a visitor lands on. `module` is the lazily loaded screen of the route, whose
 * chunk and CSS the page names up front so hydration does not wait for a second round trip.
 */
export interface PublicPage {
  path: string;
  /** Where the page is written in dist/client; the server and the service worker map the path to it. */
  file: string;
  module: string | null;
}

export const PUBLIC_PAGES: readonly PublicPage[] = [
  { path: '/', file: 'index.html', module: null },
  { path: '/login', file: 'login.html', module: 'client/features/auth/LoginPage.tsx' },
  { path: '/signup', file: 'signup.html', module: 'client/features/auth/SignupPage.tsx' },
  { path: '/forgot-password', file: 'forgot-password.html', module: 'client/features/auth/ForgotPasswordPage.tsx' },
  { path: '/admin/login', file: 'admin/login.html', module: 'client/features/admin/AdminLoginPage.tsx' },
];

/** The unprerendered shell, for every other route and for the service worker's offline navigations. */
export const SHELL_FILE = 'shell.html';
/**
 * Screens the shell preloads: the installed app opens at /home (the manifest's start_url), which
 * otherwise finds its chunks only after the entry script has run, one round trip later. Other
 * routes of the shell fetch them for nothing on a first visit; after it they come from the
 * service worker's precache.
 */
export const SHELL_PRELOADS: readonly string[] = ['client/app/layout/MemberLayout.tsx', 'client/features/feed/FeedPage.tsx'];
/**
 * Modules a signed-in /home loads with import() once the session is restored: the sync engine.
 * Preloaded by the shell too, in a file of its own (scripts/build/home-chunk.ts), so the first pull
 * does not wait for another round trip after the refresh. The validators are not among them: pull
 * answers are validated in the pull worker, and the page loads zod once the first screen is drawn
 * (docs/decisions/0032-pulls-applied-in-a-worker.md).
 */
export const SESSION_PRELOADS: readonly string[] = ['client/sync/start-sync.ts'];
export const ROUTES_FILE = 'routes.json';
