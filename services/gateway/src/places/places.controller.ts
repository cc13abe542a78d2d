import { BadRequestException, Controller, Get, Inject, Query } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { ApiTags } from '@nestjs/swagger';
import {
  GeocodeAnswer,
  GeocodeQueryDto,
  NearbyQueryDto,
  PLACES,
  PlacesAnswer,
  RADIUS_LIMITS,
  RADIUS_MESSAGE,
  radiusToMeters,
} from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';

@ApiTags('places')
@Controller('places')
export class PlacesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ClientProxy) {}

  /** Zip code → coordinates, from an offline US table. */
  @Get('geocode')
  geocode(@Query() query: GeocodeQueryDto): Promise<GeocodeAnswer> {
    return callService(this.services, PLACES.geocode, query);
  }

  /** The place-type catalogue and the filter categories. */
  @Get('types')
  types() {
    return callService(this.services, PLACES.types, {});
  }

  /** Place discovery: nearby places sorted by popularity or distance, filtered by type. */
  @Get('nearby')
  nearby(@Query() query: NearbyQueryDto): Promise<PlacesAnswer> {
    const { radius, unit, ...search } = query;
    if (radius > RADIUS_LIMITS[unit].max || radius < RADIUS_LIMITS[unit].min)
      throw new BadRequestException(RADIUS_MESSAGE);
    return callService(this.services, PLACES.search, {
      ...search,
      radiusInMeters: radiusToMeters(radius, unit),
    });
  }
}
