import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Grid } from 'antd';
import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { Logo } from './logo';

const PUBLIC_LINKS = [
  { to: '/join-session', label: 'Join a Session' },
  { to: '/how-it-works', label: 'How It Works' },
  { to: '/pricing', label: 'Pricing' },
];

export function AppHeader() {
  const screens = Grid.useBreakpoint();
  const [menuOpen, setMenuOpen] = useState(false);
  const isSmall = !screens.md;

  const links = (
    <>
      {PUBLIC_LINKS.map((link) => (
        <NavLink key={link.to} to={link.to} className="fv-nav-link" onClick={() => setMenuOpen(false)}>
          {link.label}
        </NavLink>
      ))}
      <NavLink to="/login" className="fv-nav-link" onClick={() => setMenuOpen(false)}>
        Log In
      </NavLink>
      <Link to="/register" onClick={() => setMenuOpen(false)}>
        <Button type="primary">Start Your Free Trial</Button>
      </Link>
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
              title="Menu"
              placement="right"
              open={menuOpen}
              onClose={() => setMenuOpen(false)}
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
