import { MenuOutlined, UserOutlined } from '@ant-design/icons';
import { lazy, Suspense, useState } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { LinkButton, PlainButton } from '../plain-button';
import { useMediaQuery } from '../../app/use-media-query';
import { useAuth } from '../../auth/auth-context';
import { Logo } from './logo';

const MenuDrawer = lazy(() => import('./menu-drawer'));

const PUBLIC_LINKS = [
  { to: '/join-session', label: 'Join a Session' },
  { to: '/places', label: 'Discover' },
  { to: '/how-it-works', label: 'How It Works' },
  { to: '/pricing', label: 'Pricing' },
];

export function AppHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  // The sheet's code is fetched on the first open, then kept (so it can slide out and in again).
  const [menuOpened, setMenuOpened] = useState(false);
  const auth = useAuth();
  const navigate = useNavigate();
  // Below 992 px the signed-in menu (six items) would wrap onto a second line: use the side sheet.
  const isSmall = useMediaQuery('(max-width: 991px)');
  const close = () => setMenuOpen(false);

  const logout = async () => {
    await auth.logout();
    close();
    navigate('/login');
  };

  const links = (
    <>
      {PUBLIC_LINKS.map((link) => (
        <NavLink key={link.to} to={link.to} className="fv-nav-link" onClick={close}>
          {link.label}
        </NavLink>
      ))}
      {auth.isLoading ? null : auth.isSignedIn ? (
        <>
          {auth.canCreate && (
            <NavLink to="/create-session" className="fv-nav-link" onClick={close}>
              Create a Session
            </NavLink>
          )}
          <NavLink to="/profile" className="fv-nav-link" onClick={close}>
            <span className="fv-nav-user">
              <UserOutlined />
              <span data-testid="header-user-name">{auth.payload?.name}</span>
            </span>
          </NavLink>
          <PlainButton onClick={logout} loading={auth.loggingOut}>
            Log Out
          </PlainButton>
        </>
      ) : (
        <>
          <NavLink to="/login" className="fv-nav-link" onClick={close}>
            Log In
          </NavLink>
          <LinkButton to="/register" onClick={close} type="primary">
            Start Your Free Trial
          </LinkButton>
        </>
      )}
    </>
  );

  return (
    <header className="fv-header">
      <div className="fv-header-inner">
        <Logo />
        {isSmall ? (
          <>
            <PlainButton
              className="fv-btn-text fv-menu-button"
              icon={<MenuOutlined />}
              aria-label="Open menu"
              onClick={() => {
                setMenuOpened(true);
                setMenuOpen(true);
              }}
            />
            {menuOpened && (
              <Suspense fallback={null}>
                <MenuDrawer open={menuOpen} onClose={close}>
                  <nav className="fv-nav fv-nav-vertical" aria-label="Main">
                    {links}
                  </nav>
                </MenuDrawer>
              </Suspense>
            )}
          </>
        ) : (
          <nav className="fv-nav" aria-label="Main">
            {links}
          </nav>
        )}
      </div>
    </header>
  );
}
