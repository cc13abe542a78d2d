import { CompassOutlined } from '@ant-design/icons';
import { LinkButton } from '../../components/plain-button';
import { ResultPanel } from '../../components/result-panel';

export function NotFoundPage() {
  return (
    <ResultPanel
      icon={<CompassOutlined className="fv-result-icon-neutral" />}
      title="Page Not Found"
      text="The page you are looking for does not exist."
    >
      <LinkButton to="/" type="primary">
        Return to Home
      </LinkButton>
    </ResultPanel>
  );
}
