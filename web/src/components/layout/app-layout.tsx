import { Outlet } from 'react-router';
import { AppFooter } from './app-footer';
import { AppHeader } from './app-header';

export function AppLayout() {
  return (
    <div className="fv-shell">
      <AppHeader />
      <main className="fv-main">
        <Outlet />
      </main>
      <AppFooter />
    </div>
  );
}
