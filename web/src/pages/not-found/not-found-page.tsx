import { Result } from 'antd';
import { LinkButton } from '../../components/app-button';

export function NotFoundPage() {
  return (
    <Result
      status="404"
      title={<h1 className="fv-result-title">Page Not Found</h1>}
      subTitle="The page you are looking for does not exist."
      extra={
        <LinkButton to="/" type="primary">
          Return to Home
        </LinkButton>
      }
    />
  );
}
