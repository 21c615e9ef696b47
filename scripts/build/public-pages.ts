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
export const ROUTES_FILE = 'routes.json';
