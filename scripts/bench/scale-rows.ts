/** What `bench:scale` (scale.ts) measures at each scale, apart from its script. */
/** The rows of issue 42: a label, and the row's name in bench:api. */
export const ROWS: Array<[label: string, name: string]> = [
  ['For You, page 1', 'GET /api/posts For You, page 1'],
  ['Following, page 1', 'GET /api/posts Following, page 1'],
  ['JD, page 1', 'GET /api/posts JD, page 1'],
  ['Top Posts, page 1', 'GET /api/posts Top Posts, page 1'],
  ['post detail', 'GET /api/posts/:id, 20+ top-level comments'],
  ['comments page', 'GET /api/posts/:id/comments, page 2'],
  ['notifications', 'GET /api/notifications'],
  ['notifications, grouped', 'GET /api/notifications?grouped=true'],
  ['profile', 'GET /api/users/:id (profile)'],
  ['people search', 'GET /api/users?q= (people search)'],
  ['post search', 'GET /api/search/posts (post search)'],
];
