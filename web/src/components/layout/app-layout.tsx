import { Alert } from 'antd';
import { Outlet } from 'react-router';
import { useAuth } from '../../auth/auth-context';
import { AppFooter } from './app-footer';
import { AppHeader } from './app-header';

export function AppLayout() {
  const { reconnecting } = useAuth();
  return (
    <div className="fv-shell">
      <AppHeader />
      {reconnecting && (
        <Alert
          banner
          type="warning"
          role="status"
          data-testid="reconnecting"
          message="Token verification failed"
          description="Reconnecting… You stay signed in; this page carries on once ForkVote answers again."
        />
      )}
      <main className="fv-main">
        <Outlet />
      </main>
      <AppFooter />
    </div>
  );
}
