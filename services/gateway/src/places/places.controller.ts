import { BadRequestException, Controller, Get, Inject, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiCall, ApiQueryOf } from '../api-docs';
import { ClientProxy } from '@nestjs/microservices';
import { ApiTags } from '@nestjs/swagger';
import {
  GeocodeAnswer,
  GeocodeQueryDto,
  NearbyQueryDto,
  PhotoQueryDto,
  PLACES,
  PlacesAnswer,
  RADIUS_LIMITS,
  RADIUS_MESSAGE,
  radiusToMeters,
  ROOMS,
  SessionClaims,
} from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';
import type { Request, Response } from 'express';
import { OptionalSessionGuard } from '../auth/session';
import { RateLimit, RateLimitGuard } from '../common/rate-limit';

/** Photos change rarely and their reference names them: browsers keep them for a day. */
const PHOTO_MAX_AGE_SECONDS = 86_400;

@ApiTags('places')
@Controller('places')
export class PlacesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ClientProxy) {}

  /** Zip code → coordinates, from an offline US table. */
  @Get('geocode')
  @ApiCall('Zip code → coordinates (US, offline table).', 'GeocodeAnswer')
  @ApiQueryOf(GeocodeQueryDto)
  geocode(@Query() query: GeocodeQueryDto): Promise<GeocodeAnswer> {
    return callService(this.services, PLACES.geocode, query);
  }

  /** The place-type catalogue and the filter categories. */
  @Get('types')
  @ApiCall('Every place type with its labels, and the filter groups.', 'PlaceTypesAnswer')
  types() {
    return callService(this.services, PLACES.types, {});
  }

  /**
   * A place's photo, fetched by the places service with its key (the browser never sees the provider's
   * address or key). Served with a CSP that forbids scripts, since the demo's are SVG.
   */
  @Get('photo')
  @ApiCall('A place’s photo, served by the gateway (the provider’s key never reaches a browser).', {
    media: 'image/*',
  })
  @ApiQueryOf(PhotoQueryDto)
  @RateLimit('placesPhoto')
  @UseGuards(RateLimitGuard)
  async photo(@Query() query: PhotoQueryDto, @Res() res: Response): Promise<void> {
    const photo = await callService(this.services, PLACES.photo, query);
    res
      .status(200)
      .type(photo.contentType)
      .set({
        'Cache-Control': `public, max-age=${PHOTO_MAX_AGE_SECONDS}`,
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      })
      .send(Buffer.from(photo.base64, 'base64'));
  }

  /** Place discovery: nearby places sorted by popularity or distance, filtered by type, open now and price. */
  @Get('nearby')
  @ApiCall(
    'Place discovery: nearby places by popularity or distance, filtered by type, open now and price, a page at a time.',
    'PlacesAnswer',
  )
  @ApiQueryOf(NearbyQueryDto)
  @RateLimit('placesSearch')
  @UseGuards(OptionalSessionGuard, RateLimitGuard)
  async nearby(@Query() query: NearbyQueryDto, @Req() req: Request): Promise<PlacesAnswer> {
    const { radius, unit, ...search } = query;
    if (radius > RADIUS_LIMITS[unit].max || radius < RADIUS_LIMITS[unit].min)
      throw new BadRequestException(RADIUS_MESSAGE);
    const session = req.user as SessionClaims | null | undefined;
    const [found, recent] = await Promise.all([
      callService(this.services, PLACES.search, { ...search, radiusInMeters: radiusToMeters(radius, unit) }),
      // A signed-in user's recent picks are marked; the search answers without them if rooms cannot.
      session
        ? callService(this.services, ROOMS.recentPicks, { userId: session.sub }).catch(() => null)
        : null,
    ]);
    if (!recent || recent.picks.length === 0) return found;
    const pickedAt = new Map(recent.picks.map((p) => [p.placeId, p.pickedAt]));
    return {
      ...found,
      places: found.places.map((p) => (pickedAt.has(p.id) ? { ...p, lastPickedAt: pickedAt.get(p.id) } : p)),
    };
  }
}
