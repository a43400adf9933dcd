// Lets TypeScript accept the stylesheet imports Vite bundles.
declare module '*.css';
