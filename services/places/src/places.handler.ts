import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { GeocodeQueryDto, NearbySearchDto, PLACES } from '@forkvote/contracts';
import { validated } from '@forkvote/platform';
import { PlacesService } from './places.service';

@Controller()
export class PlacesHandler {
  constructor(private readonly places: PlacesService) {}

  @MessagePattern(PLACES.geocode)
  geocode(@Payload() payload: unknown) {
    return this.places.geocode(validated(GeocodeQueryDto, payload).zip);
  }

  @MessagePattern(PLACES.search)
  search(@Payload() payload: unknown) {
    return this.places.search(validated(NearbySearchDto, payload));
  }

  @MessagePattern(PLACES.types)
  types() {
    return this.places.types();
  }
}
