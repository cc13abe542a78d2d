import { Result } from 'antd';
import { createBrowserRouter, useRouteError } from 'react-router';
import { AppLayout } from '../components/layout/app-layout';
import { HomePage } from '../pages/home/home-page';
import { NotFoundPage } from '../pages/not-found/not-found-page';

function RouteErrorPage() {
  const error = useRouteError() as Error | undefined;
  return <Result status="error" title="Unexpected Application Error!" subTitle={error?.message} />;
}

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
