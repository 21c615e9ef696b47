import { useCallback, useEffect, useMemo, useRef } from 'react';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { toast } from '#client/ui/toast';
import { signOut, useSession } from '#client/lib/session';
import { MemberGateFallback, useMemberGate } from '../routes/guards';
import { HomeIcon, LogOutIcon, SearchIcon, ShieldIcon, TrophyIcon, UploadIcon, UserIcon } from '#client/ui/icons';
import { StatusBanner } from './StatusBanner';
import { useSharedVideo } from './useSharedVideo';
import { AppHeader } from '#client/ui/AppHeader';
import { UploadDialogContext } from '#client/lib/upload-context';
import { useResumeUploads } from '#client/sync/uploads';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import { NotificationBell } from '#client/features/notifications';
import { lazyPiece, PieceBoundary } from '#client/ui/lazy-piece';
import { usePieceDialog } from '#client/ui/useDialogTarget';

// The upload dialog pulls in tus-js-client: load it only when someone opens it.
const { Piece: UploadDialog, retry: retryUploadDialog } = lazyPiece(() => import('./upload-dialog-entry'));

// Search is the current page whatever is searched (/search?q=…).
const SEARCH_ACTIVE = { includeSearch: false };

/** The signed-in layout (docs/pwa.md, "Routes"): sticky header, content, bottom navigation on small screens. */
export function MemberLayout() {
  const gate = useMemberGate();
  const session = useSession();
  useResumeUploads(session.status === 'signedIn' ? session.user.id : null);
  const navigate = useNavigate();
  const { file: sharedFile, title: sharedTitle, consume: consumeShared } = useSharedVideo(session.status === 'signedIn' ? session.user.id : null);
  // Its chunk did not come (offline on a first visit, say): closed, and loaded afresh on the next open.
  const { open: uploadOpen, used: uploadMounted, setOpen: setUploadOpen, onFailed: onUploadFailed } = usePieceDialog(retryUploadDialog);
  // The dialog opens from several buttons (none a Radix Trigger): focus returns to the one used.
  const uploadOpener = useRef<HTMLElement | null>(null);
  const openUpload = useCallback(() => {
    uploadOpener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setUploadOpen(true);
  }, [setUploadOpen]);
  const onUploadOpenChange = useCallback(
    (open: boolean) => {
      setUploadOpen(open);
      if (open) return;
      // The shared video was handed over (or declined): the Upload button opens an empty dialog.
      consumeShared();
      requestAnimationFrame(() => uploadOpener.current?.isConnected && uploadOpener.current.focus());
    },
    [consumeShared, setUploadOpen],
  );
  // A video shared into Vidi opens the upload dialog with it chosen (docs/pwa.md, "Share into Vidi").
  useEffect(() => {
    if (sharedFile) setUploadOpen(true);
  }, [sharedFile, setUploadOpen]);
  const uploadCtx = useMemo(() => ({ openUpload }), [openUpload]);

  const { busy: signingOut, run: doSignOut } = useSubmitOnce(async () => {
    try {
      await signOut();
      await navigate({ to: '/login', replace: true });
    } catch (e) {
      toast.error('Sign out Failed', { description: e instanceof Error ? e.message : 'Something went wrong' });
    }
  });

  if (gate !== 'in' || session.status !== 'signedIn') return <MemberGateFallback gate={gate === 'in' ? 'loading' : gate} />;
  const user = session.user;

  return (
    <UploadDialogContext.Provider value={uploadCtx}>
      <AppHeader navLabel="Main" below={<StatusBanner />}>
        <Link to="/search" className="nav-link wide-only" activeOptions={SEARCH_ACTIVE} activeProps={{ 'aria-current': 'page' }}>
          <SearchIcon /> <span>Search</span>
        </Link>
        <Link to="/rewards" className="nav-link wide-only" activeProps={{ 'aria-current': 'page' }}>
          <TrophyIcon /> <span>Rewards</span>
        </Link>
        <button type="button" className="nav-link" onClick={openUpload}>
          <UploadIcon /> <span>Upload</span>
        </button>
        <NotificationBell />
        <Link to="/profile" className="nav-link wide-only" activeProps={{ 'aria-current': 'page' }}>
          <UserIcon /> <span>Profile</span>
        </Link>
        {user.is_admin ? (
          <Link to="/admin" className="nav-link">
            <ShieldIcon /> <span>Admin</span>
          </Link>
        ) : null}
        <button type="button" className="nav-link" onClick={() => void doSignOut()} disabled={signingOut}>
          <LogOutIcon /> <span>Sign Out</span>
        </button>
      </AppHeader>
      <main id="main" className="member-main">
        <Outlet />
      </main>
      <nav aria-label="Bottom" className="bottom-nav">
        <Link to="/home" activeProps={{ 'aria-current': 'page' }}>
          <HomeIcon /> <span>Home</span>
        </Link>
        <Link to="/search" activeOptions={SEARCH_ACTIVE} activeProps={{ 'aria-current': 'page' }}>
          <SearchIcon /> <span>Search</span>
        </Link>
        <Link to="/rewards" activeProps={{ 'aria-current': 'page' }}>
          <TrophyIcon /> <span>Rewards</span>
        </Link>
        <Link to="/profile" activeProps={{ 'aria-current': 'page' }}>
          <UserIcon /> <span>Profile</span>
        </Link>
      </nav>
      {uploadMounted ? (
        <PieceBoundary what="the upload form" onFailed={onUploadFailed}>
          <UploadDialog open={uploadOpen} onOpenChange={onUploadOpenChange} initialFile={sharedFile} initialTitle={sharedTitle} />
        </PieceBoundary>
      ) : null}
    </UploadDialogContext.Provider>
  );
}
