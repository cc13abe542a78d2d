import { Result } from 'antd';
import { createBrowserRouter, useRouteError } from 'react-router';
import { AppLayout } from '../components/layout/app-layout';
import { LoginPage } from '../pages/auth/login-page';
import { ForgotPasswordPage, ResetPasswordPage } from '../pages/auth/password-pages';
import { RegisterPage } from '../pages/auth/register-page';
import { HomePage } from '../pages/home/home-page';
import { NotFoundPage } from '../pages/not-found/not-found-page';
import { ProfilePage } from '../pages/profile/profile-page';
import { CreateSessionPage, JoinSessionPage } from '../pages/room/join-create-pages';
import { ResultsPage, VotingPage } from '../pages/room/voting-results-pages';
import { WaitingRoomPage } from '../pages/room/waiting-room-page';
import { FeedbackPage } from '../pages/static/feedback-page';
import {
  AboutPage,
  ContactPage,
  HelpPage,
  HowItWorksPage,
  PaymentCancelPage,
  PaymentSuccessPage,
  PrivacyPage,
  TermsPage,
} from '../pages/static/info-pages';
import { PricingPage } from '../pages/static/pricing-page';
import { RequireHost, RequireSessionUser, RequireUser } from './guards';

function RouteErrorPage() {
  const error = useRouteError() as Error | undefined;
  return <Result status="error" title="Unexpected Application Error!" subTitle={error?.message} />;
}

/** SPEC §2 route table. */
export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/join-session', element: <JoinSessionPage /> },
      {
        path: '/create-session',
        element: (
          <RequireHost>
            <CreateSessionPage />
          </RequireHost>
        ),
      },
      {
        path: '/waiting-room',
        element: (
          <RequireSessionUser>
            <WaitingRoomPage />
          </RequireSessionUser>
        ),
      },
      {
        path: '/voting',
        element: (
          <RequireSessionUser>
            <VotingPage />
          </RequireSessionUser>
        ),
      },
      {
        path: '/results',
        element: (
          <RequireSessionUser>
            <ResultsPage />
          </RequireSessionUser>
        ),
      },
      { path: '/register', element: <RegisterPage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/about', element: <AboutPage /> },
      { path: '/contact', element: <ContactPage /> },
      { path: '/how-it-works', element: <HowItWorksPage /> },
      { path: '/terms', element: <TermsPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      { path: '/help', element: <HelpPage /> },
      { path: '/pricing', element: <PricingPage /> },
      { path: '/feedback', element: <FeedbackPage /> },
      { path: '/payment/success', element: <PaymentSuccessPage /> },
      { path: '/payment/cancel', element: <PaymentCancelPage /> },
      {
        path: '/profile',
        element: (
          <RequireUser>
            <ProfilePage />
          </RequireUser>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
