import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useMatches } from 'react-router';
import type { RouteHandle } from '../../app/router';
import { useAuth } from '../../auth/auth-context';
import { useRoom } from '../../room/room-context';
import { PlainAlert } from '../plain-alert';
import { SystemStatusBanner } from '../system-status';
import { AppFooter } from './app-footer';
import { AppHeader } from './app-header';

// A dialog's code (antd's Modal) is fetched only when there is something to say.
const RoomNoticeDialog = lazy(() => import('../../room/room-notice'));

/** Each route's own document title (SPEC §2 names every page; a tab that says only 'ForkVote' helps no one). */
function useDocumentTitle() {
  const matches = useMatches();
  const title = (matches.at(-1)?.handle as RouteHandle | undefined)?.title;
  useEffect(() => {
    document.title = title ? `${title} · ForkVote` : 'ForkVote';
  }, [title]);
}

export function AppLayout() {
  const { reconnecting } = useAuth();
  const room = useRoom();
  // The notice dialog's code is fetched with the first notice, then kept.
  const [noticeLoaded, setNoticeLoaded] = useState(false);
  if (room.state.room.notice && !noticeLoaded) setNoticeLoaded(true);
  useDocumentTitle();
  return (
    <div className="fv-shell">
      <AppHeader />
      {reconnecting && (
        <PlainAlert
          banner
          type="warning"
          role="status"
          data-testid="reconnecting"
          message="Token verification failed"
          description="Reconnecting… You stay signed in; this page carries on once ForkVote answers again."
        />
      )}
      <SystemStatusBanner />
      <main className="fv-main">
        <Suspense fallback={<div className="fv-page-loading" aria-busy="true" />}>
          <Outlet />
        </Suspense>
      </main>
      <AppFooter />
      {/* A new page opens at its top; Back returns to where the page was left. */}
      <ScrollRestoration />
      {noticeLoaded && (
        <Suspense fallback={null}>
          <RoomNoticeDialog />
        </Suspense>
      )}
    </div>
  );
}
