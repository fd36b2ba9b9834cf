// Renders /api/openapi.json with Swagger UI. "Try it out" is off: API keys must never be typed into a browser.
window.addEventListener('load', () => {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    supportedSubmitMethods: [],
    defaultModelsExpandDepth: 1,
  });
});
