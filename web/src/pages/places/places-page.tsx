import { EnvironmentOutlined, GlobalOutlined } from '@ant-design/icons';
import {
  DISCOVERY_PAGE_SIZE,
  placeTypeLabel,
  ROOM_MESSAGES,
  type Place,
  type RadiusUnit,
} from '@forkvote/contracts';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, errorMessage, useMe } from '../../api/endpoints';
import { useAuth } from '../../auth/auth-context';
import { DemoPlacesNotice, PlaceFacts, PlacePhoto } from '../../components/place-facts';
import { PlainAlert } from '../../components/plain-alert';
import { PlainButton } from '../../components/plain-button';
import {
  handOffSearchSettings,
  SearchSettingsFields,
  useSearchSettings,
  type SearchCriteria,
} from '../../components/search-settings';

/** Discovery (SPEC §1, §3): nearby places by popularity or distance, filtered, open to everyone. */

const LOAD_FAILED = 'Could not load places. Please try again.';

interface Found {
  places: Place[];
  nextOffset: number | null;
  demo: boolean;
  /** The search these places answer, for "Load more". */
  query: URLSearchParams;
  unit: RadiusUnit;
}

/** The search as GET /api/v1/places/nearby takes it: the radius in the unit the person chose. */
function nearbyQuery(criteria: SearchCriteria, radius: number, unit: RadiusUnit): URLSearchParams {
  const query = new URLSearchParams({
    latitude: String(criteria.latitude),
    longitude: String(criteria.longitude),
    radius: String(radius),
    unit,
    rankPreference: criteria.rankPreference,
    maxResultCount: String(DISCOVERY_PAGE_SIZE),
  });
  if (criteria.includedTypes.length > 0) query.set('includedTypes', criteria.includedTypes.join(','));
  if (criteria.excludedTypes.length > 0) query.set('excludedTypes', criteria.excludedTypes.join(','));
  if (criteria.openNow) query.set('openNow', 'true');
  if (criteria.priceLevels?.length) query.set('priceLevels', criteria.priceLevels.join(','));
  return query;
}

function DiscoveredPlace({ place, unit }: { place: Place; unit: RadiusUnit }) {
  const type = place.primaryType ?? place.types.find((t) => t !== 'restaurant') ?? 'restaurant';
  return (
    <article className="fv-place fv-light-card" data-testid="discovered-place">
      <PlacePhoto place={place} />
      <h3 className="fv-place-name">{place.displayName.text}</h3>
      <span className="fv-chip">{placeTypeLabel(type)}</span>
      {place.cuisines && <span className="fv-muted">{place.cuisines.join(' · ')}</span>}
      <PlaceFacts place={place} unit={unit} />
      <p className="fv-muted fv-place-address">{place.shortFormattedAddress || place.formattedAddress}</p>
      <div className="fv-place-links">
        <a href={place.googleMapsUri} target="_blank" rel="noreferrer">
          <EnvironmentOutlined /> Open in maps
        </a>
        {place.websiteUri && (
          <a href={place.websiteUri} target="_blank" rel="noreferrer nofollow">
            <GlobalOutlined /> Website
          </a>
        )}
      </div>
    </article>
  );
}

export function PlacesPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const { data: me } = useMe(auth.isSignedIn);
  const settings = useSearchSettings(me);
  const [found, setFound] = useState<Found | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const resultsHead = useRef<HTMLDivElement>(null);
  const [searchCount, setSearchCount] = useState(0);

  // On a phone the results are below the form: bring them up after each search.
  useEffect(() => {
    const head = resultsHead.current;
    if (searchCount === 0 || !head) return;
    if (head.getBoundingClientRect().top > window.innerHeight * 0.6) {
      head.scrollIntoView({ behavior: 'smooth', block: 'start' });
    }
  }, [searchCount]);

  const search = async () => {
    setError(null);
    setSearching(true);
    try {
      const resolved = await settings.resolve();
      if ('error' in resolved) return setError(resolved.error);
      const { unit, radius } = settings.value;
      const query = nearbyQuery(resolved.criteria, radius!, unit);
      const answer = await api.nearby(query);
      setFound({ places: answer.places, nextOffset: answer.nextOffset, demo: answer.demo, query, unit });
      setSearchCount((n) => n + 1);
    } catch (err) {
      setError(errorMessage(err, LOAD_FAILED));
    } finally {
      setSearching(false);
    }
  };

  const loadMore = async () => {
    if (!found || found.nextOffset === null) return;
    setLoadingMore(true);
    setError(null);
    try {
      const query = new URLSearchParams(found.query);
      query.set('offset', String(found.nextOffset));
      const answer = await api.nearby(query);
      // Another page of the same search: skip any place already shown (a provider's list can shift).
      const seen = new Set(found.places.map((p) => p.id));
      setFound({
        ...found,
        places: [...found.places, ...answer.places.filter((p) => !seen.has(p.id))],
        nextOffset: answer.nextOffset,
      });
    } catch (err) {
      setError(errorMessage(err, LOAD_FAILED));
    } finally {
      setLoadingMore(false);
    }
  };

  const startSession = () => {
    handOffSearchSettings(settings.value);
    navigate('/create-session');
  };

  return (
    <div className="fv-page">
      <h1 className="fv-page-title">Discover places</h1>
      <p className="fv-muted">
        See what is near you before you start a session: by popularity or distance, by type, open now and
        price.
      </p>
      <div className="fv-discover">
        <section className="fv-light-card fv-light-card-body" aria-labelledby="search-title">
          <h2 id="search-title" className="fv-progress-title">
            Search
          </h2>
          <SearchSettingsFields settings={settings} />
          <div className="fv-actions">
            <PlainButton type="primary" size="large" onClick={search} loading={searching}>
              Show places
            </PlainButton>
            {auth.canCreate && (
              <PlainButton size="large" onClick={startSession}>
                Start a session with these settings
              </PlainButton>
            )}
          </div>
        </section>
        <section aria-labelledby="results-title" aria-busy={searching}>
          <div className="fv-results-head" ref={resultsHead}>
            <h2 id="results-title">{found ? `${found.places.length} places` : 'Places'}</h2>
            {found && <span className="fv-muted">Distances from the chosen location</span>}
          </div>
          {error && <PlainAlert type="error" message={error} className="fv-form-alert" role="alert" />}
          {found?.demo && <DemoPlacesNotice />}
          {!found && !error && <p className="fv-muted">Choose a location and press Show places.</p>}
          {found && found.places.length === 0 && (
            <PlainAlert type="warning" message={ROOM_MESSAGES.noPlaces} />
          )}
          <div className="fv-place-grid">
            {found?.places.map((place) => (
              <DiscoveredPlace key={place.id} place={place} unit={found.unit} />
            ))}
          </div>
          {found && found.nextOffset !== null && (
            <PlainButton size="large" onClick={loadMore} loading={loadingMore}>
              Load more
            </PlainButton>
          )}
        </section>
      </div>
    </div>
  );
}
