import { Link } from 'react-router';

/** The brand: a fork-and-knife icon and the two-part wordmark "Fork" + "Vote". */
export function Logo() {
  return (
    <Link to="/" className="fv-logo" aria-label="ForkVote home">
      <svg className="fv-logo-icon" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <path
          fill="#fff"
          d="M10 6h1.5v7a1.5 1.5 0 0 0 1.5 1.5V6h1.5v8.5A1.5 1.5 0 0 0 16 13V6h1.5v7a3.5 3.5 0 0 1-2.5 3.4V26h-3v-9.6A3.5 3.5 0 0 1 10 13zm11 0c1.7 0 3 2.7 3 7 0 2-1 3.3-2 3.6V26h-3V6z"
        />
      </svg>
      <span className="fv-wordmark">
        <span className="fv-wordmark-fork">Fork</span>
        <span className="fv-wordmark-vote">Vote</span>
      </span>
    </Link>
  );
}
