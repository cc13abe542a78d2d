import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { GeocodeQueryDto, PhotoQueryDto, PLACES, PlacesSearchDto } from '@forkvote/contracts';
import { PlacesService } from './places.service';

@Controller()
export class PlacesHandler {
  constructor(private readonly places: PlacesService) {}

  @MessagePattern(PLACES.geocode)
  geocode(@Payload() query: GeocodeQueryDto) {
    return this.places.geocode(query.zip);
  }

  @MessagePattern(PLACES.search)
  search(@Payload() search: PlacesSearchDto) {
    return this.places.search(search);
  }

  @MessagePattern(PLACES.photo)
  photo(@Payload() query: PhotoQueryDto) {
    return this.places.photo(query.ref);
  }

  @MessagePattern(PLACES.types)
  types() {
    return this.places.types();
  }
}
