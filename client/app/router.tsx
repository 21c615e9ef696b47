import { createRootRoute, createRoute, createRouter, Outlet } from '@tanstack/react-router';
import { LandingPage } from '../features/landing/LandingPage';

const rootRoute = createRootRoute({ component: () => <Outlet /> });

const landingRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: LandingPage });

const routeTree = rootRoute.addChildren([landingRoute]);

export const router = createRouter({ routeTree, defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
