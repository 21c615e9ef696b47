import { Outlet } from '@tanstack/react-router';
import { AppToaster } from '#client/ui/AppToaster';
import { usePageMeta } from '../meta/usePageMeta';

export function RootLayout() {
  usePageMeta();
  return (
    <>
      <Outlet />
      <AppToaster />
    </>
  );
}
