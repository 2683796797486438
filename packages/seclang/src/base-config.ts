// The engine settings and body-processor rules that ModSecurity's recommended configuration
// provides before the CRS is included (our wording, the usual rule ids 200000–200007):
// XML and JSON bodies are parsed, and bodies that cannot be parsed, or that reach
// SecArgumentsLimit (1000), are refused. Rule 200001 also reads `application/…+json` types as JSON
// (Debian's reads only `^application/json`): it inspects more, never less.

export const BASE_CONFIG = `
SecRuleEngine On
SecRequestBodyAccess On
SecRule REQUEST_HEADERS:Content-Type "@rx ^(?:application/(?:soap\\+)?|text/)xml" \\
  "id:200000,phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=XML"
SecRule REQUEST_HEADERS:Content-Type "@rx ^application/(?:[a-z0-9.-]+\\+)?json" \\
  "id:200001,phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=JSON"
SecRule &ARGS "@ge 1000" \\
  "id:200007,phase:2,t:none,log,deny,status:400,msg:'Failed to fully parse request body due to large argument count',severity:2"
SecRule REQBODY_ERROR "!@eq 0" \\
  "id:200002,phase:2,t:none,log,deny,status:400,msg:'Failed to parse request body',logdata:'%{reqbody_error_msg}',severity:2"
SecRule MULTIPART_STRICT_ERROR "!@eq 0" \\
  "id:200003,phase:2,t:none,log,deny,status:400,msg:'Multipart request body failed strict validation',severity:2"
SecRule MULTIPART_UNMATCHED_BOUNDARY "!@eq 0" \\
  "id:200004,phase:2,t:none,log,deny,msg:'Multipart parser detected a possible unmatched boundary',severity:2"
`;
