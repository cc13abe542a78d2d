import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { GeocodeQueryDto, NearbySearchDto, PLACES } from '@forkvote/contracts';
import { PlacesService } from './places.service';

@Controller()
export class PlacesHandler {
  constructor(private readonly places: PlacesService) {}

  @MessagePattern(PLACES.geocode)
  geocode(@Payload() query: GeocodeQueryDto) {
    return this.places.geocode(query.zip);
  }

  @MessagePattern(PLACES.search)
  search(@Payload() search: NearbySearchDto) {
    return this.places.search(search);
  }

  @MessagePattern(PLACES.types)
  types() {
    return this.places.types();
  }
}
