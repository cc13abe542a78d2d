import { Badge, Card, Space, Typography } from 'antd';
import { useSystemHealth } from '../api/health';
import { StatusTag } from './status-tag';

/** A small card with the live health of every service, read through SWR. */
export function SystemStatus() {
  const { data, error, isLoading } = useSystemHealth();
  const ok = data?.status === 'ok';
  const headline = isLoading
    ? 'Checking system status…'
    : error && !data
      ? 'System status unavailable'
      : (data?.message ?? '');

  return (
    <Card size="small" className="fv-status" aria-live="polite" data-testid="system-status">
      <Space direction="vertical" size={6}>
        <Badge
          status={isLoading ? 'processing' : ok ? 'success' : 'error'}
          text={<strong>{headline}</strong>}
        />
        {data && (
          <Space wrap size={[4, 4]}>
            {data.services.map((service) => (
              <StatusTag key={service.service} up={service.status === 'up'}>
                {service.service} {service.status === 'up' ? `${Math.round(service.latencyMs)} ms` : 'down'}
              </StatusTag>
            ))}
            <StatusTag up={data.gateway.database.status === 'up'}>database</StatusTag>
            <StatusTag up={data.gateway.redis.status === 'up'}>redis</StatusTag>
          </Space>
        )}
        {data && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            Checked {new Date(data.checkedAt).toLocaleTimeString()}
          </Typography.Text>
        )}
      </Space>
    </Card>
  );
}
