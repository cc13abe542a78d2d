import { EnvironmentOutlined } from '@ant-design/icons';
import {
  formatCount,
  pickedAgoText,
  placeTypeLabel,
  formatDistance,
  priceSigns,
  priceWords,
  type Place,
  type RadiusUnit,
} from '@forkvote/contracts';
import { PlainAlert } from './plain-alert';

/*
 * What a card says about a place beyond its name: photo, rating, price, open now, distance. Plain markup
 * (the voting page stays light on a phone), shared by voting, results and discovery; each fact shows only
 * where the provider has it (OpenStreetMap has no rating, price or photo).
 */

/**
 * The place's photo through our gateway, with the credit the provider asks for; nothing without one. The
 * first one on a page is fetched at once (it is what the page paints largest); the rest as they near view.
 */
export function PlacePhoto({ place, first = false }: { place: Place; first?: boolean }) {
  if (!place.photo) return null;
  const credits = place.photo.attributions;
  return (
    <figure className="fv-place-photo">
      <img
        src={place.photo.uri}
        alt=""
        loading={first ? 'eager' : 'lazy'}
        fetchPriority={first ? 'high' : 'auto'}
        decoding="async"
        width={400}
        height={240}
      />
      {credits.length > 0 && (
        <figcaption>
          Photo:{' '}
          {credits.map((credit, index) => (
            <span key={credit.displayName}>
              {index > 0 && ', '}
              {credit.uri ? (
                <a href={credit.uri} target="_blank" rel="noreferrer">
                  {credit.displayName}
                </a>
              ) : (
                credit.displayName
              )}
            </span>
          ))}
        </figcaption>
      )}
    </figure>
  );
}

export function PlaceFacts({ place, unit }: { place: Place; unit?: RadiusUnit }) {
  const price = priceSigns(place.priceLevel);
  const openNow = place.currentOpeningHours?.openNow;
  const facts = [
    place.rating !== undefined && (
      <li
        key="rating"
        aria-label={`Rated ${place.rating.toFixed(1)} of 5${place.userRatingCount ? ` from ${formatCount(place.userRatingCount)} ratings` : ''}`}
      >
        <span className="fv-star" aria-hidden="true">
          ★
        </span>{' '}
        {place.rating.toFixed(1)}
        {place.userRatingCount !== undefined && (
          <span className="fv-muted"> ({formatCount(place.userRatingCount)})</span>
        )}
      </li>
    ),
    price && (
      <li key="price" aria-label={`Price: ${priceWords(place.priceLevel)}`}>
        {price}
      </li>
    ),
    openNow !== undefined && (
      <li key="open" className={openNow ? 'fv-open' : 'fv-closed'}>
        {openNow ? 'Open now' : 'Closed now'}
      </li>
    ),
    unit && place.distanceMeters !== undefined && (
      <li key="distance">{formatDistance(place.distanceMeters, unit)} away</li>
    ),
    place.lastPickedAt && (
      <li key="picked" className="fv-picked" data-testid="picked-ago">
        {pickedAgoText(place.lastPickedAt)}
      </li>
    ),
  ].filter(Boolean);
  if (facts.length === 0) return null;
  return <ul className="fv-facts">{facts}</ul>;
}

/** Said wherever demo places are shown, so nobody takes them for real restaurants. */
export function DemoPlacesNotice() {
  return (
    <PlainAlert
      type="info"
      message="Sample places: live place search is not available right now, so these places are not real."
      className="fv-form-alert"
    />
  );
}

const typeLabel = (place: Place) =>
  placeTypeLabel(
    place.primaryType ?? place.types.find((t) => t !== 'restaurant') ?? place.types[0] ?? 'restaurant',
  );

/** What a ballot shows of a place, in the list and on a swipe card alike. */
export function BallotPlace({ place, first }: { place: Place; first: boolean }) {
  return (
    <>
      <PlacePhoto place={place} first={first} />
      <h2 className="fv-place-name">{place.displayName.text}</h2>
      <span className="fv-chip">{typeLabel(place)}</span>
      <PlaceFacts place={place} />
      <p className="fv-muted fv-place-address">{place.shortFormattedAddress || place.formattedAddress}</p>
      <a className="fv-maps-link" href={place.googleMapsUri} target="_blank" rel="noreferrer">
        <EnvironmentOutlined /> Open in maps
      </a>
    </>
  );
}
