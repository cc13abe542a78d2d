import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ConfigModule, registerAs } from '@nestjs/config';
import { HEALTH_PATTERNS, ServiceName } from '@forkvote/contracts';
import { loadConfig, PlatformConfig } from './config';
import { DatabaseModule, DatabaseOptions } from './database';
import { SERVICE_MODE, serviceHealthController } from './health';
import { RedisModule } from './redis';
import { RpcErrorFilter, RpcValidationPipe } from './rpc-pipeline';
import { createServiceClient } from './transport';
import { StreamsClient } from './transport/streams.client';

/** Injection token of the client that sends requests to any service (routed by pattern prefix). */
export const SERVICE_CLIENT = Symbol('SERVICE_CLIENT');

const clientProvider = {
  provide: SERVICE_CLIENT,
  inject: [PlatformConfig],
  useFactory: (config: PlatformConfig): StreamsClient => createServiceClient(config),
};

/**
 * The process's settings, held by @nestjs/config: read from the environment and validated once by the
 * config class's own class-validator rules (a bad or missing value stops the process, naming it), under one
 * namespace that is injected as the class itself.
 */
@Global()
@Module({})
class ConfigHostModule {
  static register(configClass: new () => PlatformConfig): DynamicModule {
    const settings = registerAs('forkvote', () => loadConfig(configClass));
    // Subclasses are also reachable as PlatformConfig, so platform providers can inject the base class.
    const asBase =
      configClass === PlatformConfig ? [] : [{ provide: PlatformConfig, useExisting: configClass }];
    return {
      module: ConfigHostModule,
      // No .env file: the environment is the only source, here as in the cluster.
      imports: [ConfigModule.forRoot({ ignoreEnvFile: true, load: [settings] })],
      providers: [{ provide: configClass, useExisting: settings.KEY }, ...asBase],
      exports: [configClass, PlatformConfig],
    };
  }
}

/**
 * What every service imports: validated config, its database schema (migrated), Redis, the service
 * client and the `<service>.health` handler. A reader who knows one service knows them all.
 */
@Module({})
export class PlatformModule {
  static forService<C extends PlatformConfig>(
    service: ServiceName,
    database: Omit<DatabaseOptions, 'schema'>,
    configClass: new () => C = PlatformConfig as new () => C,
    /** How the service runs where an operator must know (billing: 'test mode'), for its health answer. */
    mode?: (config: C) => string,
  ): DynamicModule {
    return {
      module: PlatformModule,
      global: true,
      imports: [
        ConfigHostModule.register(configClass),
        RedisModule,
        DatabaseModule.forService({ schema: service, ...database }),
      ],
      controllers: [serviceHealthController(service, HEALTH_PATTERNS[service])],
      providers: [
        clientProvider,
        // One pipeline for every handler: payloads validated against their command class, errors mapped once.
        { provide: APP_PIPE, useClass: RpcValidationPipe },
        { provide: APP_FILTER, useClass: RpcErrorFilter },
        ...(mode ? [{ provide: SERVICE_MODE, inject: [configClass], useFactory: mode }] : []),
      ],
      exports: [SERVICE_CLIENT],
    };
  }

  /** For the gateway: config, Redis and the service client; it owns no schema. */
  static forGateway(configClass: new () => PlatformConfig): DynamicModule {
    return {
      module: PlatformModule,
      global: true,
      imports: [ConfigHostModule.register(configClass), RedisModule],
      providers: [clientProvider],
      exports: [SERVICE_CLIENT],
    };
  }
}
