import { Outlet } from '@tanstack/react-router';
import { AppToaster } from '../../ui/AppToaster';

export function RootLayout() {
  return (
    <>
      <Outlet />
      <AppToaster />
    </>
  );
}
