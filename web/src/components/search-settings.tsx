import { AimOutlined, FilterOutlined } from '@ant-design/icons';
import {
  defaultTypeFilter,
  placeTypeLabel,
  PRICE_FILTER_LEVELS,
  priceSigns,
  RADIUS_LIMITS,
  radiusToMeters,
  ZIPCODE_PATTERN,
  type PriceLevel,
  type RadiusUnit,
  type RankPreference,
  type StartRoomDto,
  type TypeFilter,
  type WireUser,
} from '@forkvote/contracts';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import type { ComponentProps, ReactNode } from 'react';
import { api } from '../api/endpoints';
import { ApiError } from '../api/http';
import { PlainAlert } from './plain-alert';
import { PlainButton } from './plain-button';
import { PlainSelect } from './plain-select';

// The Filtering dialog (antd's Modal and the type editor, in antd's theme) is fetched the first time it opens.
const FilterDialog = lazy(async () => {
  const [{ default: Dialog }, { AntdScope }] = await Promise.all([
    import('./filter-dialog'),
    import('../app/antd-scope'),
  ]);
  return {
    default: (props: ComponentProps<typeof Dialog>) => (
      <AntdScope>
        <Dialog {...props} />
      </AntdScope>
    ),
  };
});

/*
 * Where and what to search, with SPEC §2/§5's rules: zip code or browser location, radius in miles or km,
 * sort, the Filtering dialog, and "Open now" and price. The waiting room's host and the discovery page
 * use the same fields, and discovery can hand its settings to a new session.
 */

const GEO_TIMEOUT_MS = 5000;
const LOCATION_ERROR_MS = 3000;
const LOCATION_ERROR =
  'Unable to get your location. Please check your browser permissions or use zip code instead.';
const HANDOFF_KEY = 'forkvote.searchSettings';

type LocationMode = 'zip' | 'browser';
type Coordinates = { latitude: number; longitude: number };
type GeoState = { status: 'notStarted' | 'loading' | 'success' | 'error'; coords?: Coordinates };

/** Everything the fields hold, as handed from discovery to a new session. */
export interface SearchSettingsValue {
  mode: LocationMode;
  zip: string;
  coords?: Coordinates;
  unit: RadiusUnit;
  radius: number | null;
  sort: RankPreference;
  filter: TypeFilter;
  openNow: boolean;
  priceLevels: PriceLevel[];
  /** Says whose location `coords` is, when it is not the browser's (a saved group's last search). */
  locationLabel?: string;
}

/** What a search sends: the start payload (SPEC §3, with open now and price) without maxResultCount. */
export type SearchCriteria = Omit<StartRoomDto, 'maxResultCount'> & {
  includedTypes: string[];
  excludedTypes: string[];
  rankPreference: RankPreference;
};

/** Keeps settings for the next page of this tab (discovery → create a session → waiting room). */
export function handOffSearchSettings(value: SearchSettingsValue): void {
  sessionStorage.setItem(HANDOFF_KEY, JSON.stringify(value));
}

/** The settings handed off to this page, if any (read during render: it has no effect). */
export function handedOffSearchSettings(): SearchSettingsValue | null {
  try {
    const stored = sessionStorage.getItem(HANDOFF_KEY);
    return stored ? (JSON.parse(stored) as SearchSettingsValue) : null;
  } catch {
    return null;
  }
}

/** Forgets the handed-off settings once a page has taken them: they were for one session. */
export function forgetHandedOffSearchSettings(): void {
  sessionStorage.removeItem(HANDOFF_KEY);
}

const checkZip = (value: string) => {
  if (!value) return 'Please enter a zip code.';
  return ZIPCODE_PATTERN.test(value) ? null : 'Please enter a valid 5-digit zip code.';
};

export type SearchSettings = ReturnType<typeof useSearchSettings>;

/**
 * The fields' state. `handedOff` (from discovery) wins over the signed-in user's saved preferences, which
 * otherwise are the defaults (SPEC §4).
 */
export function useSearchSettings(me: WireUser | undefined, handedOff: SearchSettingsValue | null = null) {
  const [mode, setMode] = useState<LocationMode>(handedOff?.mode ?? 'zip');
  const [zip, setZip] = useState(handedOff?.zip ?? '');
  const [zipError, setZipError] = useState<string | null>(null);
  const [geo, setGeo] = useState<GeoState>(
    handedOff?.coords ? { status: 'success', coords: handedOff.coords } : { status: 'notStarted' },
  );
  const [geoCountdown, setGeoCountdown] = useState(100);
  const [unit, setUnit] = useState<RadiusUnit>(handedOff?.unit ?? 'miles');
  const [radius, setRadius] = useState<number | null>(handedOff?.radius ?? RADIUS_LIMITS.miles.default);
  const [sort, setSort] = useState<RankPreference>(handedOff?.sort ?? 'popularity');
  const [filter, setFilter] = useState<TypeFilter>(handedOff?.filter ?? defaultTypeFilter());
  const [openNow, setOpenNow] = useState(handedOff?.openNow ?? false);
  const [priceLevels, setPriceLevels] = useState<PriceLevel[]>(handedOff?.priceLevels ?? []);

  useEffect(() => {
    if (!me || handedOff) return;
    setFilter(defaultTypeFilter(me));
    if (me.defaultZipcode) setZip(me.defaultZipcode);
  }, [me, handedOff]);

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

  const coordinates = async (): Promise<Coordinates | null> => {
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

  /** The search to send, or the SPEC's message for what is missing. */
  const resolve = async (): Promise<{ criteria: SearchCriteria } | { error: string }> => {
    const coords = await coordinates();
    if (!coords) return { error: 'Please provide location information' };
    const limits = RADIUS_LIMITS[unit];
    if (radius === null || radius < limits.min || radius > limits.max) {
      return { error: `Please choose a search radius between ${limits.min} and ${limits.max} ${unit}.` };
    }
    return {
      criteria: {
        ...coords,
        radiusInMeters: radiusToMeters(radius, unit),
        includedTypes: filter.included,
        excludedTypes: filter.excluded,
        rankPreference: sort,
        ...(openNow ? { openNow: true } : {}),
        ...(priceLevels.length > 0 ? { priceLevels } : {}),
      },
    };
  };

  const value: SearchSettingsValue = {
    mode,
    zip,
    coords: mode === 'browser' ? geo.coords : undefined,
    unit,
    radius,
    sort,
    filter,
    openNow,
    priceLevels,
  };

  return {
    value,
    fields: {
      mode,
      setMode,
      zip,
      setZip,
      zipError,
      setZipError,
      geo,
      // Until the host asks for their own location instead.
      locationLabel:
        handedOff?.coords && geo.coords === handedOff.coords ? handedOff.locationLabel : undefined,
      geoCountdown,
      locate,
      unit,
      setUnit,
      radius,
      setRadius,
      sort,
      setSort,
      filter,
      setFilter,
      openNow,
      setOpenNow,
      priceLevels,
      setPriceLevels,
    },
    resolve,
  };
}

/** One setting: its label above it, a note or the setting's message below (laid out as the app's forms). */
function Setting({
  label,
  note,
  error,
  children,
}: {
  label?: string;
  note?: string;
  error?: string | null;
  children: ReactNode;
}) {
  return (
    <div className="fv-setting">
      {label && <div className="fv-setting-label">{label}</div>}
      {children}
      {error ? (
        <div className="fv-setting-error" role="alert">
          {error}
        </div>
      ) : (
        note && <div className="fv-muted fv-setting-note">{note}</div>
      )}
    </div>
  );
}

/** "Zip code" or "Browser location": a radio group drawn as joined buttons (styles.css, `.fv-segmented`). */
function LocationChoice({ mode, onChange }: { mode: LocationMode; onChange: (mode: LocationMode) => void }) {
  const name = useId();
  const choices: [LocationMode, string][] = [
    ['zip', 'Zip code'],
    ['browser', 'Browser location'],
  ];
  return (
    <div role="radiogroup" aria-label="Location" className="fv-segmented">
      {choices.map(([value, label]) => (
        <label key={value} className={mode === value ? 'fv-segment fv-segment-checked' : 'fv-segment'}>
          <input
            type="radio"
            name={name}
            value={value}
            checked={mode === value}
            onChange={() => onChange(value)}
          />
          {label}
        </label>
      ))}
    </div>
  );
}

const UNITS = [
  { value: 'miles', label: 'miles' },
  { value: 'km', label: 'km' },
] as const;
const SORTS = [
  { value: 'popularity', label: 'Popularity' },
  { value: 'distance', label: 'Distance' },
] as const;

/**
 * The fields, laid out as one vertical form, in plain markup: the discovery page loads no antd, and the
 * host's panel draws the same controls.
 */
export function SearchSettingsFields({ settings }: { settings: SearchSettings }) {
  const f = settings.fields;
  const [filterOpen, setFilterOpen] = useState(false);
  const [filterLoaded, setFilterLoaded] = useState(false);
  const limits = RADIUS_LIMITS[f.unit];
  const summary =
    f.filter.included[0] === 'restaurant' && f.filter.excluded.length === 0
      ? 'All restaurants'
      : `${f.filter.included.filter((t) => t !== 'restaurant').length} included, ${f.filter.excluded.length} excluded`;

  return (
    <div className="fv-settings">
      <Setting label="Location">
        <LocationChoice mode={f.mode} onChange={f.setMode} />
      </Setting>
      {f.mode === 'zip' ? (
        <Setting label="Zip code" error={f.zipError}>
          <input
            className="fv-input fv-zip"
            value={f.zip}
            maxLength={5}
            inputMode="numeric"
            autoComplete="postal-code"
            aria-invalid={f.zipError ? true : undefined}
            onChange={(e) => f.setZip(e.target.value.trim())}
            onBlur={() => f.setZipError(checkZip(f.zip))}
            placeholder="e.g. 10001"
            aria-label="Zip code"
          />
        </Setting>
      ) : (
        <Setting>
          {f.geo.status === 'error' ? (
            <div role="alert">
              <PlainAlert type="error" message={LOCATION_ERROR} />
              <div
                className="fv-countdown"
                role="progressbar"
                aria-label="Back to zip code"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(f.geoCountdown)}
              >
                <div style={{ width: `${f.geoCountdown}%` }} />
              </div>
            </div>
          ) : f.geo.status === 'success' ? (
            <PlainAlert type="success" message={f.locationLabel ?? 'Using your current location.'} />
          ) : (
            <PlainButton icon={<AimOutlined />} onClick={f.locate} loading={f.geo.status === 'loading'}>
              Use my location
            </PlainButton>
          )}
        </Setting>
      )}
      <Setting label="Search radius">
        <div className="fv-radius">
          <input
            type="number"
            className="fv-input"
            min={limits.min}
            max={limits.max}
            value={f.radius ?? ''}
            onChange={(e) => f.setRadius(e.target.value === '' ? null : e.target.valueAsNumber)}
            // Typed, not stepped; a number past a limit is brought back to it when the field is left.
            onBlur={() =>
              f.setRadius((r) =>
                r === null || Number.isNaN(r) ? null : Math.min(limits.max, Math.max(limits.min, r)),
              )
            }
            aria-label="Search radius"
            inputMode="numeric"
          />
          <PlainSelect
            value={f.unit}
            onChange={(u) => {
              f.setUnit(u);
              f.setRadius((r) => (r === null ? r : Math.min(r, RADIUS_LIMITS[u].max)));
            }}
            options={UNITS}
            aria-label="Radius unit"
          />
        </div>
      </Setting>
      <Setting label="Sort By">
        <PlainSelect
          value={f.sort}
          onChange={f.setSort}
          className="fv-sort"
          options={SORTS}
          aria-label="Sort By"
        />
      </Setting>
      <Setting label="Restaurant types">
        <div className="fv-filter-row">
          <PlainButton
            icon={<FilterOutlined />}
            onClick={() => {
              setFilterLoaded(true);
              setFilterOpen(true);
            }}
          >
            Filtering
          </PlainButton>
          <span className="fv-muted">{summary}</span>
          {f.filter.included
            .filter((t) => t !== 'restaurant')
            .slice(0, 4)
            .map((t) => (
              <span key={t} className="fv-tag fv-tag-plain">
                {placeTypeLabel(t)}
              </span>
            ))}
        </div>
      </Setting>
      <Setting label="Price" note="Places with no known price are kept.">
        <div role="group" aria-label="Price" className="fv-check-row">
          {PRICE_FILTER_LEVELS.map((level) => (
            <label key={level} className="fv-check">
              <input
                type="checkbox"
                checked={f.priceLevels.includes(level)}
                onChange={(e) =>
                  f.setPriceLevels(
                    PRICE_FILTER_LEVELS.filter((l) =>
                      l === level ? e.target.checked : f.priceLevels.includes(l),
                    ),
                  )
                }
              />
              {priceSigns(level)}
            </label>
          ))}
        </div>
      </Setting>
      <Setting>
        <label className="fv-switch-label">
          <input
            type="checkbox"
            role="switch"
            className="fv-switch"
            checked={f.openNow}
            onChange={(e) => f.setOpenNow(e.target.checked)}
          />
          Open now only
        </label>
      </Setting>
      {filterLoaded && (
        <Suspense fallback={null}>
          <FilterDialog
            open={filterOpen}
            value={f.filter}
            onChange={f.setFilter}
            onClose={() => setFilterOpen(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
