import { Outlet } from '@tanstack/react-router';
import { AppToaster } from '#client/ui/AppToaster';

export function RootLayout() {
  return (
    <>
      <Outlet />
      <AppToaster />
    </>
  );
}
