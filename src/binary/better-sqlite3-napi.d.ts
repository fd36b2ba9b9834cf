// Types of better-sqlite3 13, installed under the alias better-sqlite3-napi: the same API as @types/better-sqlite3 describes.
declare module 'better-sqlite3-napi' {
  import Database from 'better-sqlite3';
  export default Database;
}
