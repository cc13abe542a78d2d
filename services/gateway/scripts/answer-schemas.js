// @ts-check
/**
 * Part of the gateway's build: JSON Schemas of the answers the API gives, generated from the contracts'
 * TypeScript types (ts-json-schema-generator), for the OpenAPI document (src/openapi.ts). One source of
 * truth: change an answer type and the document follows.
 */
'use strict';
const { createGenerator } = require('ts-json-schema-generator');
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const CONTRACTS = path.join(__dirname, '..', '..', '..', 'libs', 'contracts');
/** Answer types by the name the document gives them. */
const ANSWERS = {
  AccessTokenPayload: 'AccessTokenPayload',
  CheckoutAnswer: 'CheckoutAnswer',
  WireUser: 'WireUser',
  StripeInformation: 'StripeInformation',
  CreateRoomAnswer: 'CreateRoomAnswer',
  JoinRoomAnswer: 'JoinRoomAnswer',
  PlacesAnswer: 'PlacesAnswer',
  NextBatchAnswer: 'NextBatchAnswer',
  NudgeAnswer: 'NudgeAnswer',
  RoomSnapshot: 'RoomSnapshot',
  GeocodeAnswer: 'GeocodeAnswer',
  PlaceTypesAnswer: 'PlaceTypesAnswer',
  PublicHealth: 'PublicHealth',
  RoomEvents: 'RoomEventMap',
  DecisionRuleAnswer: 'DecisionRuleAnswer',
  HoldoutRound: 'HoldoutRound',
  HoldoutAnswer: 'HoldoutAnswer',
  DrawnPick: 'DrawnPick',
  SharePlanAnswer: 'SharePlanAnswer',
  PlanView: 'PlanView',
  HistoryPage: 'HistoryPage',
  PushKeyAnswer: 'PushKeyAnswer',
  PushSubscribed: 'PushSubscribed',
  LimitsAnswer: 'LimitsAnswer',
  GroupsAnswer: 'GroupsAnswer',
  SavedGroup: 'SavedGroup',
  InvitationsAnswer: 'InvitationsAnswer',
};

const generator = createGenerator({
  path: path.join(CONTRACTS, 'src', 'index.ts'),
  tsconfig: path.join(CONTRACTS, 'tsconfig.json'),
  skipTypeCheck: true,
  expose: 'export',
  topRef: false,
  jsDoc: 'basic',
});
/** @type {Record<string, object>} */
const schemas = {};
for (const [name, type] of Object.entries(ANSWERS)) {
  const { definitions, ...schema } = /** @type {any} */ (generator.createSchema(type));
  Object.assign(schemas, definitions);
  schemas[name] = schema;
}
const out = path.join(__dirname, '..', 'dist', 'openapi');
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'answer-schemas.json'), JSON.stringify(schemas));
