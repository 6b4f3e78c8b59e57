// Tokens that vendors print in their own documentation and that are copied into tutorials,
// tests and notes everywhere. They unlock nothing, and flagging them teaches users to ignore the
// scanner. Values with a marker word (AWS's `…EXAMPLE`, `…EXAMPLEKEY`) are placeholders already.
const PUBLISHED_EXAMPLES = new Set([
  // Stripe API reference and older Stripe docs: test-mode keys of Stripe's own demo account.
  "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
  "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
  "sk_test_26PHem9AhJZvU623DfE1x4sd",
  "pk_test_TYooMQauvdEDq54NiTphI7jx",
  // GitHub docs: the token in "Authenticating to the REST API" and the token-format examples.
  "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
  "gho_16C7e42F292c6912E7710c838347Ae178B4a",
  "ghu_16C7e42F292c6912E7710c838347Ae178B4a",
  "ghs_16C7e42F292c6912E7710c838347Ae178B4a",
  "ghr_16C7e42F292c6912E7710c838347Ae178B4a",
  // Slack docs: the bot token in the oauth.v2.access response example.
  "xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy",
  // Mailgun docs: the API key in the curl examples of the v3 API.
  "key-3ax6xnjp29jd6fds4gc373sgvjxteol0",
  // jwt.io's default token ({"sub":"1234567890","name":"John Doe","iat":1516239022}).
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
]);

// A run of eight or more consecutive characters of one alphabet ("12345678", "abcdefgh"): how a
// person illustrates a token (`sk_live_1234567890abcdef…`); a random body almost never has one.
const ALPHABETS = ["0123456789", "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"];
const MIN_RUN = 8;
const RUNS = ALPHABETS.flatMap((alphabet) => Array.from({ length: alphabet.length - MIN_RUN + 1 }, (_, start) => alphabet.slice(start, start + MIN_RUN)));

/** Whether a value is a token a vendor published as an example in its documentation. */
export function isPublishedExampleToken(value: string): boolean {
  return PUBLISHED_EXAMPLES.has(value);
}

/**
 * Whether a token body is written as an illustration. Tokens only: a person's password may well
 * be "hunter12345678".
 */
export function isIllustrativeToken(token: string): boolean {
  return RUNS.some((run) => token.includes(run));
}
