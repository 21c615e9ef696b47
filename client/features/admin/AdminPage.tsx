import { useState } from 'react';
import { Link, Navigate, useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { signOut, useSession } from '#client/lib/session';
import { Spinner } from '#client/ui/Spinner';
import { HomeIcon, LogOutIcon } from '#client/ui/icons';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import { Tabs, type TabDef } from '#client/ui/Tabs';
import { StatCards } from './components/StatCards';
import { UsersTab } from './components/UsersTab';
import { VideosTab } from './components/VideosTab';
import { RewardsTab } from './components/RewardsTab';
import { SettingsTab } from './components/SettingsTab';
import { ReportsTab } from './components/ReportsTab';
import { HashtagsTab } from './components/HashtagsTab';
import { reportsTabLabel } from './components/report-text';
import { useAdminStats } from './api';
import type { ReactNode } from 'react';
import { AppHeader } from '#client/ui/AppHeader';
import { AuditLog } from './components/AuditLog';
import './admin.css';

type TabKey = 'users' | 'videos' | 'reports' | 'hashtags' | 'rewards' | 'settings';

/** The Reports tab's label counts the open entries ("Reports (3)"), from the stats (reloaded after every admin action). */
function useTabs(): Array<TabDef<TabKey>> {
  const open = useAdminStats().data?.open_reports;
  return [
    { key: 'users', label: 'Users' },
    { key: 'videos', label: 'Videos' },
    { key: 'reports', label: reportsTabLabel(open) },
    { key: 'hashtags', label: 'Hashtags' },
    { key: 'rewards', label: 'Rewards' },
    { key: 'settings', label: 'Settings' },
  ];
}

/** /admin (docs/pwa.md, "Routes"; docs/admin-payments.md): no profile -> /admin/login, not an admin -> /home. */
export function AdminPage({ rewardsActions }: { rewardsActions?: ReactNode }) {
  const session = useSession();
  if (session.status === 'loading') return <Spinner fullScreen label="Loading your session" />;
  if (session.status === 'signedOut') return <Navigate to="/admin/login" replace />;
  if (!session.user.is_admin) return <Navigate to="/home" replace />;
  return <Dashboard selfId={session.user.id} offline={session.offline} rewardsActions={rewardsActions} />;
}

function Dashboard({ selfId, offline, rewardsActions }: { selfId: string; offline: boolean; rewardsActions: ReactNode }) {
  const [tab, setTab] = useState<TabKey>('users');
  const tabs = useTabs();
  const navigate = useNavigate();
  const { busy, run: logout } = useSubmitOnce(async () => {
    try {
      await signOut();
      await navigate({ to: '/admin/login', replace: true });
    } catch (e) {
      toast.error('Sign out Failed', { description: e instanceof Error ? e.message : 'Something went wrong' });
    }
  });

  return (
    <>
      <AppHeader navLabel="Admin">
        <Link to="/home" className="nav-link">
          <HomeIcon /> <span>Home</span>
        </Link>
        <button type="button" className="nav-link" onClick={() => void logout()} disabled={busy}>
          <LogOutIcon /> <span>Logout</span>
        </button>
      </AppHeader>
      <main id="main" className="admin-main">
        <h1>Admin Dashboard</h1>
        {offline ? (
          <p className="notice error" role="status">
            You are offline. The admin area needs a connection.
          </p>
        ) : null}
        <StatCards />
        <Tabs<TabKey> className="admin-tabs" tabs={tabs} selected={tab} onSelect={setTab} label="Admin sections">
          {tab === 'users' ? <UsersTab selfId={selfId} /> : null}
          {tab === 'videos' ? <VideosTab /> : null}
          {tab === 'reports' ? <ReportsTab /> : null}
          {tab === 'hashtags' ? <HashtagsTab /> : null}
          {tab === 'rewards' ? <RewardsTab>{rewardsActions}</RewardsTab> : null}
          {tab === 'settings' ? <SettingsTab /> : null}
        </Tabs>
        <AuditLog />
      </main>
    </>
  );
}
