import { createRootRoute, createRoute, createRouter, lazyRouteComponent, type RouterHistory } from '@tanstack/react-router';
import { LandingPage } from '../features/landing/LandingPage';
import { GuestOnly } from './routes/guards';
import { RootLayout } from './routes/RootLayout';
import { NotFound, RouteError } from './routes/fallbacks';
import { Spinner } from '../ui/Spinner';
import type { SearchType } from '#sync/rest-api/discovery';

// Code-based routes (no generated tree). Screens load lazily so the first route stays small.
const rootRoute = createRootRoute({ component: RootLayout });

const landingRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: LandingPage });

/** /login, /signup and /forgot-password: public, but a signed-in visitor is sent to /home. */
const guestRoute = createRoute({ getParentRoute: () => rootRoute, id: 'guest', component: GuestOnly });
const loginRoute = createRoute({
  getParentRoute: () => guestRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): { verified?: string } => (search.verified === undefined ? {} : { verified: String(search.verified) }),
  component: lazyRouteComponent(() => import('../features/auth/LoginPage'), 'LoginPage'),
});
const signupRoute = createRoute({
  getParentRoute: () => guestRoute,
  path: '/signup',
  component: lazyRouteComponent(() => import('../features/auth/SignupPage'), 'SignupPage'),
});

const forgotPasswordRoute = createRoute({
  getParentRoute: () => guestRoute,
  path: '/forgot-password',
  component: lazyRouteComponent(() => import('../features/auth/ForgotPasswordPage'), 'ForgotPasswordPage'),
});
/**
 * The mailed reset link: public, also for a visitor signed in on this device (the reset ends that session too).
 * Its token is out of the address before the router starts (client/lib/reset-token.ts).
 */
const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  component: lazyRouteComponent(() => import('../features/auth/ResetPasswordPage'), 'ResetPasswordPage'),
});

/** /home, /rewards, /profile, /@handle, /search, /tag/{tag}, /watch/{id}: signed-in members only, inside the member layout. */
// The member layout brings the local database and the sync engine: loaded with the first member screen.
const memberRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'member',
  component: lazyRouteComponent(() => import('./layout/MemberLayout'), 'MemberLayout'),
});
const homeRoute = createRoute({
  getParentRoute: () => memberRoute,
  path: '/home',
  component: lazyRouteComponent(() => import('../features/feed/FeedPage'), 'FeedPage'),
});
const rewardsRoute = createRoute({
  getParentRoute: () => memberRoute,
  path: '/rewards',
  component: lazyRouteComponent(() => import('../features/rewards/RewardsPage'), 'RewardsPage'),
});
const profileRoute = createRoute({
  getParentRoute: () => memberRoute,
  path: '/profile',
  component: lazyRouteComponent(() => import('../features/profile/ProfilePage'), 'ProfilePage'),
});

/** A creator's page, /@handle (docs/pwa.md, "People"): members only, like the feed it links from. */
const creatorRoute = createRoute({
  getParentRoute: () => memberRoute,
  path: '/@{$handle}',
  component: lazyRouteComponent(() => import('./routes/CreatorRoute'), 'CreatorRoute'),
});

/**
 * The full-screen viewer (docs/pwa.md, "Viewer"): the feed's player over a list, `?list=` naming it
 * (feed, following, creator:{handle}, tag:{tag}:{recent|top}, search:{q}; the feed when absent).
 */
const watchRoute = createRoute({
  getParentRoute: () => memberRoute,
  path: '/watch/$videoId',
  validateSearch: (search: Record<string, unknown>): { list?: string } => (typeof search.list === 'string' && search.list ? { list: search.list } : {}),
  component: lazyRouteComponent(() => import('../features/feed/viewer/ViewerPage'), 'ViewerPage'),
});

// People is the first tab, so the address names only the others. Not SEARCH_TYPES: its module brings zod into the first chunk.
const SEARCH_TABS: readonly SearchType[] = ['videos', 'hashtags'];
/** Search (docs/pwa.md, "Discovery"): the query and tab stand in the address, so Back returns to the results. */
const searchRoute = createRoute({
  getParentRoute: () => memberRoute,
  path: '/search',
  validateSearch: (search: Record<string, unknown>): { q?: string; type?: SearchType } => ({
    ...(typeof search.q === 'string' && search.q ? { q: search.q } : {}),
    ...((SEARCH_TABS as readonly unknown[]).includes(search.type) ? { type: search.type as SearchType } : {}),
  }),
  component: lazyRouteComponent(() => import('./routes/SearchRoute'), 'SearchRoute'),
});
/** A hashtag's page, /tag/{tag} (docs/pwa.md, "Discovery"): members only, like the cards that link to it. */
const tagRoute = createRoute({
  getParentRoute: () => memberRoute,
  path: '/tag/$tag',
  component: lazyRouteComponent(() => import('./routes/TagRoute'), 'TagRoute'),
});

/** Entry-fee payment after sign-up (public; the page itself belongs to the payments feature). */
const paymentRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/payment',
  component: lazyRouteComponent(() => import('../features/payment/PaymentPage'), 'PaymentPage'),
});
/** Admin login (public) and the dashboard (the page itself redirects non-admins). */
const adminLoginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin/login',
  component: lazyRouteComponent(() => import('../features/admin/AdminLoginPage'), 'AdminLoginPage'),
});
const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin',
  component: lazyRouteComponent(() => import('./routes/AdminRoute'), 'AdminRoute'),
});

const routeTree = rootRoute.addChildren([
  landingRoute,
  paymentRoute,
  resetPasswordRoute,
  adminLoginRoute,
  adminRoute,
  guestRoute.addChildren([loginRoute, signupRoute, forgotPasswordRoute]),
  memberRoute.addChildren([homeRoute, rewardsRoute, profileRoute, creatorRoute, searchRoute, tagRoute, watchRoute]),
]);

/** The browser's router (no history given), or one over a memory history for prerendering a page at build time. */
export function createAppRouter(history?: RouterHistory) {
  return createRouter({
    routeTree,
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    defaultPendingComponent: () => <Spinner fullScreen />,
    defaultNotFoundComponent: NotFound,
    defaultErrorComponent: RouteError,
    // The server-rendered form of scroll restoration is an inline script, which the CSP refuses;
    // a prerendered page is a fresh visit, so there is nothing to restore anyway.
    scrollRestoration: !history,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
