import { MenuOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Drawer, Grid, Space, Typography } from 'antd';
import { useState } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { LinkButton } from '../app-button';
import { useAuth } from '../../auth/auth-context';
import { Logo } from './logo';

const PUBLIC_LINKS = [
  { to: '/join-session', label: 'Join a Session' },
  { to: '/how-it-works', label: 'How It Works' },
  { to: '/pricing', label: 'Pricing' },
];

export function AppHeader() {
  const screens = Grid.useBreakpoint();
  const [menuOpen, setMenuOpen] = useState(false);
  const auth = useAuth();
  const navigate = useNavigate();
  const isSmall = !screens.md;
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
            <Space size={6}>
              <UserOutlined />
              <span data-testid="header-user-name">{auth.payload?.name}</span>
            </Space>
          </NavLink>
          <Button onClick={logout} loading={auth.loggingOut}>
            Log Out
          </Button>
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
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label="Open menu"
              onClick={() => setMenuOpen(true)}
            />
            <Drawer
              title={<Typography.Text strong>Menu</Typography.Text>}
              placement="right"
              open={menuOpen}
              onClose={close}
              size={280}
            >
              <nav className="fv-nav fv-nav-vertical" aria-label="Main">
                {links}
              </nav>
            </Drawer>
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
