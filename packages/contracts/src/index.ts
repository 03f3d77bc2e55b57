// The public surface of @campus/contracts: one zod schema (and its inferred type) per payload and
// response of spec §3/§7. Browser-safe: no Node-only imports.
export * from './common';
export * from './auth';
export * from './sessions';
export * from './users';
export * from './profile';
export * from './posts';
export * from './own-words';
export * from './feedback';
export * from './account-applications';
export * from './settings';
export * from './uploads';
export * from './media';
export * from './notifications';
export * from './stream';
export * from './analytics';
export * from './jobs';
export * from './admin';
export * from './moderation-reasons';
export * from './reports';
export * from './safety';
export * from './appeals';
export * from './text-entities';
export * from './discovery';
export * from './call-routes';
export * from './calls';
export * from './call-types';
