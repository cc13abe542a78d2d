import { AimOutlined, FilterOutlined } from '@ant-design/icons';
import {
  defaultTypeFilter,
  MAX_RESULT_COUNT,
  placeTypeLabel,
  RADIUS_LIMITS,
  radiusToMeters,
  ZIPCODE_PATTERN,
  type RadiusUnit,
  type TypeFilter,
} from '@forkvote/contracts';
import {
  Alert,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Modal,
  Progress,
  Radio,
  Select,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, useMe } from '../../api/endpoints';
import { ApiError } from '../../api/http';
import { useAuth } from '../../auth/auth-context';
import { AppButton } from '../../components/app-button';
import { ConfirmDialog } from '../../components/dialogs/dialogs';
import { TypeFilterEditor } from '../../components/type-filter-editor';
import { leaveAndGoHome, useRoom } from '../../room/room-context';
import { useCopyInvite } from '../../room/use-copy-invite';
import { CopyFeedback } from '../../components/copy-feedback';

/** The host's side of the waiting room: where and what to search, start voting, close the room. */
const GEO_TIMEOUT_MS = 5000;
const LOCATION_ERROR_MS = 3000;
const LOCATION_ERROR =
  'Unable to get your location. Please check your browser permissions or use zip code instead.';

type LocationMode = 'zip' | 'browser';
type GeoState = {
  status: 'notStarted' | 'loading' | 'success' | 'error';
  coords?: { latitude: number; longitude: number };
};

export function HostControls() {
  const { state, start, leave } = useRoom();
  const auth = useAuth();
  const navigate = useNavigate();
  const { data: me } = useMe(auth.isSignedIn);
  const [mode, setMode] = useState<LocationMode>('zip');
  const [zip, setZip] = useState('');
  const [zipError, setZipError] = useState<string | null>(null);
  const [geo, setGeo] = useState<GeoState>({ status: 'notStarted' });
  const [geoCountdown, setGeoCountdown] = useState(100);
  const [unit, setUnit] = useState<RadiusUnit>('miles');
  const [radius, setRadius] = useState<number | null>(RADIUS_LIMITS.miles.default);
  const [sort, setSort] = useState<'popularity' | 'distance'>('popularity');
  const [filter, setFilter] = useState<TypeFilter>(defaultTypeFilter());
  const [filterOpen, setFilterOpen] = useState(false);
  const [onePerson, setOnePerson] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  // 'Invite Friends' in the One person! dialog copies the link, with the same feedback as the Invite button.
  const invite = useCopyInvite(state.room.waitingRoom?.waitingRoomId);

  // Saved preferences are the defaults (SPEC §4).
  useEffect(() => {
    if (!me) return;
    setFilter(defaultTypeFilter(me));
    if (me.defaultZipcode) setZip(me.defaultZipcode);
  }, [me]);

  // Location error: message and a 3-second countdown, then back to zip code.
  useEffect(() => {
    if (geo.status !== 'error') return;
    const started = Date.now();
    const timer = setInterval(() => {
      const left = Math.max(0, 100 - ((Date.now() - started) / LOCATION_ERROR_MS) * 100);
      setGeoCountdown(left);
      if (left === 0) {
        clearInterval(timer);
        setGeo({ status: 'notStarted' });
        setMode('zip');
      }
    }, 50);
    return () => clearInterval(timer);
  }, [geo.status]);

  const locate = () => {
    setGeo({ status: 'loading' });
    setGeoCountdown(100);
    if (!navigator.geolocation) return setGeo({ status: 'error' });
    navigator.geolocation.getCurrentPosition(
      (position) =>
        setGeo({
          status: 'success',
          coords: { latitude: position.coords.latitude, longitude: position.coords.longitude },
        }),
      () => setGeo({ status: 'error' }),
      { enableHighAccuracy: true, timeout: GEO_TIMEOUT_MS },
    );
  };

  const checkZip = (value: string) => {
    if (!value) return 'Please enter a zip code.';
    return ZIPCODE_PATTERN.test(value) ? null : 'Please enter a valid 5-digit zip code.';
  };

  const coordinates = async (): Promise<{ latitude: number; longitude: number } | null> => {
    if (mode === 'browser') return geo.coords ?? null;
    const problem = checkZip(zip);
    setZipError(problem);
    if (problem) return null;
    try {
      const found = await api.geocode(zip);
      return { latitude: found.lat, longitude: found.lon };
    } catch (err) {
      setZipError(
        err instanceof ApiError && err.status === 404
          ? 'Could not find location for this zip code.'
          : 'Error looking up zip code location.',
      );
      return null;
    }
  };

  const begin = async () => {
    setFormError(null);
    setStarting(true);
    try {
      const coords = await coordinates();
      if (!coords) return setFormError('Please provide location information');
      const limits = RADIUS_LIMITS[unit];
      if (radius === null || radius < limits.min || radius > limits.max) {
        return setFormError(`Please choose a search radius between ${limits.min} and ${limits.max} ${unit}.`);
      }
      await start({
        ...coords,
        radiusInMeters: radiusToMeters(radius, unit),
        includedTypes: filter.included,
        excludedTypes: filter.excluded,
        maxResultCount: MAX_RESULT_COUNT,
        rankPreference: sort,
      });
    } finally {
      setStarting(false);
    }
  };

  const onStart = () =>
    (state.room.waitingRoom?.users.length ?? 0) <= 1 ? setOnePerson(true) : void begin();
  const summary =
    filter.included[0] === 'restaurant' && filter.excluded.length === 0
      ? 'All restaurants'
      : `${filter.included.filter((t) => t !== 'restaurant').length} included, ${filter.excluded.length} excluded`;

  return (
    <Card title="Search settings">
      {(formError || state.voting.error) && (
        <Alert
          type="error"
          showIcon
          message={formError ?? `Error: ${state.voting.error}`}
          className="fv-form-alert"
          role="alert"
        />
      )}
      <Form layout="vertical">
        <Form.Item label="Location">
          <Radio.Group value={mode} onChange={(e) => setMode(e.target.value)} optionType="button">
            <Radio.Button value="zip">Zip code</Radio.Button>
            <Radio.Button value="browser">Browser location</Radio.Button>
          </Radio.Group>
        </Form.Item>
        {mode === 'zip' ? (
          <Form.Item label="Zip code" validateStatus={zipError ? 'error' : ''} help={zipError ?? undefined}>
            <Input
              value={zip}
              maxLength={5}
              inputMode="numeric"
              onChange={(e) => setZip(e.target.value.trim())}
              onBlur={() => setZipError(checkZip(zip))}
              placeholder="e.g. 10001"
              aria-label="Zip code"
            />
          </Form.Item>
        ) : (
          <Form.Item>
            {geo.status === 'error' ? (
              <div role="alert">
                <Alert type="error" message={LOCATION_ERROR} showIcon />
                <Progress percent={geoCountdown} showInfo={false} size="small" status="exception" />
              </div>
            ) : geo.status === 'success' ? (
              <Alert type="success" showIcon message="Using your current location." />
            ) : (
              <Button icon={<AimOutlined />} onClick={locate} loading={geo.status === 'loading'}>
                Use my location
              </Button>
            )}
          </Form.Item>
        )}
        <Form.Item label="Search radius">
          <Space.Compact>
            <InputNumber
              min={RADIUS_LIMITS[unit].min}
              max={RADIUS_LIMITS[unit].max}
              value={radius}
              onChange={(v) => setRadius(v)}
              aria-label="Search radius"
            />
            <Select
              value={unit}
              onChange={(u: RadiusUnit) => {
                setUnit(u);
                setRadius((r) => (r === null ? r : Math.min(r, RADIUS_LIMITS[u].max)));
              }}
              options={[
                { value: 'miles', label: 'miles' },
                { value: 'km', label: 'km' },
              ]}
              aria-label="Radius unit"
            />
          </Space.Compact>
        </Form.Item>
        <Form.Item label="Sort By">
          <Select
            value={sort}
            onChange={setSort}
            className="fv-sort"
            options={[
              { value: 'popularity', label: 'Popularity' },
              { value: 'distance', label: 'Distance' },
            ]}
            aria-label="Sort By"
          />
        </Form.Item>
        <Form.Item label="Restaurant types">
          <Space wrap>
            <Button icon={<FilterOutlined />} onClick={() => setFilterOpen(true)}>
              Filtering
            </Button>
            <Typography.Text type="secondary">{summary}</Typography.Text>
            {filter.included
              .filter((t) => t !== 'restaurant')
              .slice(0, 4)
              .map((t) => (
                <Tag key={t}>{placeTypeLabel(t)}</Tag>
              ))}
          </Space>
        </Form.Item>
      </Form>
      <Space wrap>
        <Button type="primary" size="large" onClick={onStart} loading={starting || state.voting.isLoading}>
          Start voting
        </Button>
        <AppButton variant="destructive" size="lg" onClick={() => setConfirmClose(true)}>
          Close Waiting Room
        </AppButton>
      </Space>
      <CopyFeedback {...invite} />

      <Modal
        title="Filtering"
        open={filterOpen}
        onCancel={() => setFilterOpen(false)}
        onOk={() => setFilterOpen(false)}
        okText="Done"
        width={640}
      >
        <TypeFilterEditor value={filter} onChange={setFilter} />
      </Modal>
      <ConfirmDialog
        open={onePerson}
        title="One person!"
        message="You're the only person in the session. That's totally fine, but voting is more fun with friends. Invite them with the link or the waiting room ID."
        cancelLabel="Invite Friends"
        continueLabel="Continue with single person"
        onResult={(go) => {
          setOnePerson(false);
          if (go) void begin();
          else void invite.copy();
        }}
      />
      <ConfirmDialog
        open={confirmClose}
        title="Close the waiting room?"
        message="Everyone in the session will be sent back to the home page."
        continueLabel="Close Waiting Room"
        onResult={async (go) => {
          setConfirmClose(false);
          if (go) await leaveAndGoHome(navigate, leave);
        }}
      />
    </Card>
  );
}
