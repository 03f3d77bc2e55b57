// Test helpers for every app's jest tests. Never imported by application code, and not shared
// through Module Federation (rspack.shared.js skips this entry point).
export { callsTo, mockApi, signIn, TEST_API_URL } from './mock-api';
export type { ApiCall, ApiHandler, ApiReply, FetchMock, MockApiOptions } from './mock-api';
export { FakeEventSource } from './fake-event-source';
export { renderPage } from './render-page';
export type { RenderPageOptions } from './render-page';
export { renderWithTheme } from './render-with-theme';
export {
  ADA,
  BEN,
  makeImage,
  makePost,
  makePosts,
  profileOf,
  TEST_THUMBHASH,
  uploadedAs,
} from './fixtures';
