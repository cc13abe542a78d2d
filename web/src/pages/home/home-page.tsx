import { Button, Space, Typography } from 'antd';
import { Link } from 'react-router';
import { SystemStatus } from '../../components/system-status';

export function HomePage() {
  return (
    <div className="fv-page">
      <section className="fv-hero">
        <Typography.Title level={1}>Never argue about where to eat again</Typography.Title>
        <Typography.Paragraph className="fv-hero-lead">
          Open a room, invite your friends, vote yes or no on nearby places, and eat where everyone agreed.
        </Typography.Paragraph>
        <Space wrap>
          <Link to="/join-session">
            <Button size="large">Join a Session</Button>
          </Link>
          <Link to="/pricing">
            <Button size="large" type="primary">
              Start Your Free Trial
            </Button>
          </Link>
        </Space>
      </section>
      <SystemStatus />
    </div>
  );
}
