import { lazy } from 'react';
import type { ComponentType, ReactNode } from 'react';
import { createBrowserRouter, RouteObject, useRouteError } from 'react-router';
import { AppLayout } from '../components/layout/app-layout';
import { RequireHost, RequireSessionUser, RequireUser } from './guards';

/** The router's fallback (SPEC §8), plain markup: it must show even when a page's code failed to load. */
function RouteErrorPage() {
  const error = useRouteError() as Error | undefined;
  return (
    <div className="fv-error-page" role="alert">
      <h1>Unexpected Application Error!</h1>
      {error?.message && <p>{error.message}</p>}
      <a href="/">Return to Home</a>
    </div>
  );
}

/** The document title of each route: "<page> · ForkVote" (AppLayout sets it). */
export interface RouteHandle {
  title: string;
}

type Guard = ComponentType<{ children: ReactNode }>;

/** Waits `ms`, or less if the browser comes back online meanwhile. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener('online', done);
  });
}

/**
 * A page's code, fetched again while the network is away (1, 2, 4, 8, 16 s, or at once when it returns):
 * a phone that moves to /results while offline must not be left on an error page, and React.lazy would keep
 * a failed import for good. The page's Suspense fallback shows meanwhile.
 */
export async function loadPatiently<T>(
  load: () => Promise<T>,
  waits = [1000, 2000, 4000, 8000, 16_000],
): Promise<T> {
  for (const wait of waits) {
    try {
      return await load();
    } catch {
      await pause(wait);
    }
  }
  return load();
}

const antdScope = () => import('./antd-scope');

/**
 * A route whose page is loaded on first visit (React.lazy; AppLayout's Suspense shows the frame meanwhile):
 * the guest's path (join, waiting room, voting, results) never downloads the account, profile, pricing or
 * static pages, nor they its code. Pages are plain markup and load no antd; one that uses antd says so
 * (`antd: true`) and comes inside antd's theme (AntdScope).
 */
function page(
  path: string,
  title: string,
  load: () => Promise<ComponentType>,
  { guard: Guard, antd = false }: { guard?: Guard; antd?: boolean } = {},
): RouteObject {
  const Page = lazy(async () => {
    if (!antd) return { default: await loadPatiently(load) };
    const [Loaded, { AntdScope }] = await Promise.all([loadPatiently(load), loadPatiently(antdScope)]);
    return {
      default: () => (
        <AntdScope>
          <Loaded />
        </AntdScope>
      ),
    };
  });
  return {
    path,
    handle: { title } satisfies RouteHandle,
    element: Guard ? (
      <Guard>
        <Page />
      </Guard>
    ) : (
      <Page />
    ),
  };
}

const enter = () => import('../pages/room/join-create-pages');
const waiting = () => import('../pages/room/waiting-room-page');
const voting = () => import('../pages/room/voting-page');
const results = () => import('../pages/room/results-page');
const auth = () => import('../pages/auth/auth-pages');
const info = () => import('../pages/static/info-pages');

/** SPEC §2 route table. */
export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      page(
        '/',
        'Decide where to eat, together',
        async () => (await import('../pages/home/home-page')).HomePage,
      ),
      page('/join-session', 'Join a Session', async () => (await enter()).JoinSessionPage),
      page('/create-session', 'Create a New Session', async () => (await enter()).CreateSessionPage, {
        guard: RequireHost,
      }),
      page('/waiting-room', 'Waiting Room', async () => (await waiting()).WaitingRoomPage, {
        guard: RequireSessionUser,
      }),
      page('/voting', 'Time to Vote!', async () => (await voting()).VotingPage, {
        guard: RequireSessionUser,
      }),
      page('/results', 'Results', async () => (await results()).ResultsPage, { guard: RequireSessionUser }),
      page(
        '/places',
        'Discover places',
        async () => (await import('../pages/places/places-page')).PlacesPage,
      ),
      page('/plan/:token', 'The plan', async () => (await import('../pages/plan/plan-page')).PlanPage),
      page('/register', 'Start Your Free Trial', async () => (await auth()).RegisterPage),
      page('/login', 'Log In', async () => (await auth()).LoginPage),
      page('/forgot-password', 'Forgot Password', async () => (await auth()).ForgotPasswordPage),
      page('/reset-password', 'Choose a New Password', async () => (await auth()).ResetPasswordPage),
      page('/about', 'About', async () => (await info()).AboutPage),
      page('/contact', 'Contact', async () => (await info()).ContactPage),
      page('/how-it-works', 'How It Works', async () => (await info()).HowItWorksPage),
      page('/terms', 'Terms of Service', async () => (await info()).TermsPage),
      page('/privacy', 'Privacy Policy', async () => (await info()).PrivacyPage),
      page('/help', 'Help', async () => (await info()).HelpPage),
      page('/pricing', 'Pricing', async () => (await import('../pages/static/pricing-page')).PricingPage),
      page('/feedback', 'Feedback', async () => (await import('../pages/static/feedback-page')).FeedbackPage),
      page('/payment/success', 'Registration Complete', async () => (await info()).PaymentSuccessPage),
      page('/payment/cancel', 'Payment Unsuccessful', async () => (await info()).PaymentCancelPage),
      page('/profile', 'Profile', async () => (await import('../pages/profile/profile-page')).ProfilePage, {
        guard: RequireUser,
        antd: true,
      }),
      page(
        '*',
        'Page Not Found',
        async () => (await import('../pages/not-found/not-found-page')).NotFoundPage,
      ),
    ],
  },
]);
