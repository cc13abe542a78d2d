import { Link } from 'react-router';

const FOOTER_LINKS = [
  { to: '/about', label: 'About' },
  { to: '/terms', label: 'Terms' },
  { to: '/privacy', label: 'Privacy' },
  { to: '/help', label: 'Help' },
  { to: '/feedback', label: 'Feedback' },
];

export function AppFooter() {
  return (
    <footer className="fv-footer">
      <nav className="fv-footer-links" aria-label="Footer">
        {FOOTER_LINKS.map((link) => (
          <Link key={link.to} to={link.to}>
            {link.label}
          </Link>
        ))}
      </nav>
      <p className="fv-copyright">© {new Date().getFullYear()} ForkVote. All rights reserved.</p>
    </footer>
  );
}
