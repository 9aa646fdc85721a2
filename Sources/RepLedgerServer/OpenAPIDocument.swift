/// The OpenAPI 3.1 document of the API, served at `GET /v1/openapi.json`.
/// `OpenAPITests` checks it against the routes `LedgerResponder` serves, and
/// CI fuzzes a live server from it with schemathesis.
enum OpenAPIDocument {
    static let bytes: [UInt8] = Array(text.utf8)
    static let text = ##"""
{
 "openapi": "3.1.0",
 "info": {
  "title": "RepLedger server",
  "version": "2.0.0",
  "description": "Each account's hash-chained workout log, device sync and the CLI's queries over HTTP (SERVER.md). Every non-2xx answer is {\"error\":{\"code\",\"message\"}}."
 },
 "servers": [
  {
   "url": "http://127.0.0.1:8787"
  }
 ],
 "security": [
  {
   "bearer": []
  }
 ],
 "components": {
  "securitySchemes": {
   "bearer": {
    "type": "http",
    "scheme": "bearer"
   }
  },
  "schemas": {
   "Error": {
    "type": "object",
    "properties": {
     "error": {
      "type": "object",
      "properties": {
       "code": {
        "type": "string"
       },
       "message": {
        "type": "string"
       },
       "stream": {
        "type": "string"
       },
       "expected": {
        "type": "integer"
       },
       "actual": {
        "type": "integer"
       },
       "eventId": {
        "type": "string"
       }
      },
      "required": [
       "code",
       "message"
      ]
     }
    },
    "required": [
     "error"
    ]
   },
   "Head": {
    "type": "object",
    "properties": {
     "position": {
      "type": "integer",
      "minimum": 0
     },
     "hash": {
      "type": "string",
      "pattern": "^[0-9a-f]{64}$"
     }
    },
    "required": [
     "position",
     "hash"
    ]
   },
   "Envelope": {
    "type": "object",
    "properties": {
     "position": {
      "type": "integer"
     },
     "eventId": {
      "type": "string"
     },
     "stream": {
      "type": "string"
     },
     "version": {
      "type": "integer"
     },
     "type": {
      "type": "string"
     },
     "schema": {
      "type": "integer"
     },
     "occurredAt": {
      "type": "string"
     },
     "recordedAt": {
      "type": "string"
     },
     "device": {
      "type": "string"
     },
     "causationId": {
      "type": [
       "string",
       "null"
      ]
     },
     "correlationId": {
      "type": [
       "string",
       "null"
      ]
     },
     "payload": {
      "type": "object"
     },
     "hash": {
      "type": "string"
     }
    },
    "required": [
     "position",
     "eventId",
     "stream",
     "version",
     "type",
     "schema",
     "occurredAt",
     "recordedAt",
     "device",
     "payload",
     "hash"
    ]
   },
   "Records": {
    "type": "object",
    "properties": {
     "exercises": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "exercise": {
         "type": "string"
        },
        "exerciseId": {
         "type": "string"
        },
        "heaviestKg": {
         "type": [
          "number",
          "null"
         ]
        },
        "bestE1rmKg": {
         "type": [
          "number",
          "null"
         ]
        },
        "bestSetVolumeKg": {
         "type": [
          "number",
          "null"
         ]
        },
        "bestSessionVolumeKg": {
         "type": [
          "number",
          "null"
         ]
        },
        "repMaxesKg": {
         "type": "object"
        }
       },
       "required": [
        "exercise",
        "exerciseId"
       ]
      }
     }
    },
    "required": [
     "exercises"
    ]
   },
   "History": {
    "type": "object",
    "properties": {
     "workouts": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "workoutId": {
         "type": "string"
        },
        "name": {
         "type": "string"
        },
        "startedAt": {
         "type": "string"
        },
        "finishedAt": {
         "type": [
          "string",
          "null"
         ]
        },
        "durationSeconds": {
         "type": [
          "integer",
          "null"
         ]
        },
        "sets": {
         "type": "integer"
        },
        "tonnageKg": {
         "type": "number"
        },
        "exercises": {
         "type": "array"
        }
       },
       "required": [
        "workoutId",
        "name",
        "startedAt",
        "sets",
        "tonnageKg",
        "exercises"
       ]
      }
     }
    },
    "required": [
     "workouts"
    ]
   },
   "Volume": {
    "type": "object",
    "properties": {
     "by": {
      "type": "string"
     },
     "chartWindow": {
      "oneOf": [
       {
        "type": "null"
       },
       {
        "type": "object",
        "properties": {
         "from": {
          "type": "string"
         },
         "through": {
          "type": "string"
         },
         "days": {
          "type": "integer"
         }
        },
        "required": [
         "from",
         "through",
         "days"
        ]
       }
      ]
     },
     "upsell": {
      "type": [
       "string",
       "null"
      ]
     },
     "rows": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "key": {
         "type": "string"
        },
        "label": {
         "type": "string"
        },
        "sets": {
         "type": "integer"
        },
        "tonnageKg": {
         "type": "number"
        },
        "secondarySets": {
         "type": "integer"
        }
       },
       "required": [
        "key",
        "label",
        "sets",
        "tonnageKg",
        "secondarySets"
       ]
      }
     }
    },
    "required": [
     "by",
     "rows"
    ]
   },
   "Entitlements": {
    "type": "object",
    "properties": {
     "isPro": {
      "type": "boolean"
     },
     "isCoach": {
      "type": "boolean"
     },
     "activeProducts": {
      "type": "array",
      "items": {
       "type": "string"
      }
     },
     "templateLimit": {
      "type": [
       "integer",
       "null"
      ]
     },
     "softUpsell": {
      "type": "boolean"
     },
     "at": {
      "type": "string"
     },
     "completedWorkouts": {
      "type": "integer"
     },
     "liveTemplates": {
      "type": "integer"
     }
    },
    "required": [
     "isPro",
     "isCoach",
     "activeProducts",
     "templateLimit",
     "softUpsell",
     "at"
    ]
   },
   "Hint": {
    "type": "object",
    "properties": {
     "exercise": {
      "type": "string"
     },
     "exerciseId": {
      "type": "string"
     },
     "lastWorkoutId": {
      "type": [
       "string",
       "null"
      ]
     },
     "date": {
      "type": [
       "string",
       "null"
      ]
     },
     "ago": {
      "type": [
       "string",
       "null"
      ]
     },
     "bestSet": {
      "type": [
       "object",
       "null"
      ]
     },
     "sets": {
      "type": "array"
     }
    },
    "required": [
     "exercise",
     "exerciseId",
     "sets"
    ]
   },
   "E1RM": {
    "type": "object",
    "properties": {
     "exercise": {
      "type": "string"
     },
     "exerciseId": {
      "type": "string"
     },
     "formula": {
      "type": "string"
     },
     "chartWindow": {
      "oneOf": [
       {
        "type": "null"
       },
       {
        "type": "object",
        "properties": {
         "from": {
          "type": "string"
         },
         "through": {
          "type": "string"
         },
         "days": {
          "type": "integer"
         }
        },
        "required": [
         "from",
         "through",
         "days"
        ]
       }
      ]
     },
     "upsell": {
      "type": [
       "string",
       "null"
      ]
     },
     "points": {
      "type": "array"
     },
     "weeks": {
      "type": "array"
     }
    },
    "required": [
     "exercise",
     "exerciseId",
     "formula",
     "points",
     "weeks"
    ]
   },
   "Summary": {
    "type": "object",
    "properties": {
     "workout": {
      "type": "object"
     },
     "records": {
      "type": "array"
     },
     "exercises": {
      "type": "array"
     },
     "comparison": {
      "type": [
       "object",
       "null"
      ]
     },
     "durationSeconds": {
      "type": [
       "integer",
       "null"
      ]
     },
     "heartRate": {
      "type": [
       "object",
       "null"
      ]
     },
     "activeEnergyKcal": {
      "type": "number"
     }
    },
    "required": [
     "workout",
     "records",
     "exercises"
    ]
   },
   "Prompt": {
    "type": "object",
    "properties": {
     "prompt": {
      "type": [
       "string",
       "null"
      ]
     },
     "variant": {
      "type": [
       "string",
       "null"
      ]
     },
     "title": {
      "type": [
       "string",
       "null"
      ]
     },
     "message": {
      "type": [
       "string",
       "null"
      ]
     }
    },
    "required": [
     "prompt",
     "variant",
     "title",
     "message"
    ]
   },
   "RepCount": {
    "type": "object",
    "properties": {
     "excessReps": {
      "type": "integer"
     }
    },
    "required": [
     "excessReps"
    ]
   },
   "Verify": {
    "type": "object",
    "properties": {
     "ok": {
      "type": "boolean"
     },
     "events": {
      "type": "integer"
     },
     "firstBadPosition": {
      "type": [
       "integer",
       "null"
      ]
     },
     "reason": {
      "type": [
       "string",
       "null"
      ]
     },
     "headHash": {
      "type": "string"
     }
    },
    "required": [
     "ok",
     "events",
     "firstBadPosition",
     "reason",
     "headHash"
    ]
   },
   "PushBody": {
    "type": "object",
    "properties": {
     "events": {
      "type": "array",
      "maxItems": 5000,
      "items": {
       "type": "object",
       "properties": {
        "eventId": {
         "type": "string",
         "format": "uuid"
        },
        "stream": {
         "type": "string"
        },
        "type": {
         "type": "string"
        },
        "schema": {
         "type": "integer"
        },
        "occurredAt": {
         "type": "string"
        },
        "payload": {
         "type": "object"
        },
        "causationId": {
         "type": [
          "string",
          "null"
         ]
        },
        "correlationId": {
         "type": [
          "string",
          "null"
         ]
        }
       },
       "required": [
        "eventId",
        "stream",
        "type",
        "schema",
        "occurredAt",
        "payload"
       ]
      }
     },
     "expectedVersions": {
      "type": "object",
      "additionalProperties": {
       "type": "integer",
       "minimum": 0
      }
     }
    },
    "required": [
     "events"
    ]
   },
   "Erasure": {
    "type": "object"
   }
  },
  "responses": {
   "Error": {
    "description": "An error: {\"error\":{\"code\",\"message\"}}",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   }
  }
 },
 "paths": {
  "/v1/health": {
   "get": {
    "summary": "Liveness and version (no token).",
    "security": [],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "ok": {
           "type": "boolean"
          },
          "version": {
           "type": "string"
          }
         },
         "required": [
          "ok",
          "version"
         ]
        }
       }
      }
     }
    }
   }
  },
  "/v1/openapi.json": {
   "get": {
    "summary": "This document (no token).",
    "security": [],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      }
     }
    }
   }
  },
  "/v1/accounts/{account}/events": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    }
   ],
   "get": {
    "summary": "Envelopes after a position, ascending (exactly the lines of `ledger log`).",
    "parameters": [
     {
      "name": "after",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer"
      },
      "description": "Only events after this position (default 0)."
     },
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer"
      },
      "description": "At most this many (default 1000, max 10000)."
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "events": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/Envelope"
           }
          },
          "head": {
           "$ref": "#/components/schemas/Head"
          }
         },
         "required": [
          "events",
          "head"
         ]
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   },
   "post": {
    "summary": "Append a batch atomically (re-validated as the CLI would; re-sent event ids are skipped).",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/PushBody"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "appended": {
           "type": "array",
           "items": {
            "type": "integer"
           }
          },
          "alreadyStored": {
           "type": "integer"
          },
          "head": {
           "$ref": "#/components/schemas/Head"
          }
         },
         "required": [
          "appended",
          "alreadyStored",
          "head"
         ]
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "409": {
      "$ref": "#/components/responses/Error"
     },
     "413": {
      "$ref": "#/components/responses/Error"
     },
     "422": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/accounts/{account}/events/live": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    }
   ],
   "get": {
    "summary": "Every event after a position, then each new one as it is appended.",
    "parameters": [
     {
      "name": "after",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer"
      },
      "description": "Start after this position (or the Last-Event-ID header)."
     }
    ],
    "responses": {
     "200": {
      "description": "Server-Sent Events: `id:` the position, `data:` the envelope; `: keep-alive` every 15 s.",
      "content": {
       "text/event-stream": {
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/accounts/{account}/verify": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    }
   ],
   "get": {
    "summary": "The `ledger verify --json` document.",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Verify"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/accounts/{account}/prs": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    }
   ],
   "get": {
    "summary": "Personal records (`ledger prs --json`).",
    "parameters": [
     {
      "name": "asOf",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A global position or an ISO 8601 time: the log as it stood then."
     },
     {
      "name": "until",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A training date (YYYY, YYYY-MM, YYYY-MM-DD or a time)."
     },
     {
      "name": "exercise",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "Only this exercise."
     },
     {
      "name": "timeline",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "true: every record ever set."
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Records"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/accounts/{account}/history": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    }
   ],
   "get": {
    "summary": "Workouts, newest first (`ledger history --json`).",
    "parameters": [
     {
      "name": "asOf",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A global position or an ISO 8601 time: the log as it stood then."
     },
     {
      "name": "until",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A training date (YYYY, YYYY-MM, YYYY-MM-DD or a time)."
     },
     {
      "name": "exercise",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "Only workouts with this exercise."
     },
     {
      "name": "month",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "YYYY-MM."
     },
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer"
      },
      "description": "At least 1."
     },
     {
      "name": "offset",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer"
      },
      "description": "0 or more."
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/History"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/accounts/{account}/volume": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    }
   ],
   "get": {
    "summary": "Sets and tonnage (`ledger volume --json`).",
    "parameters": [
     {
      "name": "asOf",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A global position or an ISO 8601 time: the log as it stood then."
     },
     {
      "name": "until",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A training date (YYYY, YYYY-MM, YYYY-MM-DD or a time)."
     },
     {
      "name": "by",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "workout, week, muscle or exercise."
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Volume"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/accounts/{account}/entitlements": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    }
   ],
   "get": {
    "summary": "Free, Pro or Coach (`ledger entitlements --json`).",
    "parameters": [
     {
      "name": "asOf",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A global position or an ISO 8601 time: the log as it stood then."
     },
     {
      "name": "until",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A training date (YYYY, YYYY-MM, YYYY-MM-DD or a time)."
     },
     {
      "name": "at",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "The time to answer for."
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Entitlements"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/accounts/{account}/hint/{exercise}": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    },
    {
     "name": "exercise",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "An exercise id or name."
    }
   ],
   "get": {
    "summary": "Last-time hint (`ledger hint --json`).",
    "parameters": [
     {
      "name": "asOf",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A global position or an ISO 8601 time: the log as it stood then."
     },
     {
      "name": "until",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A training date (YYYY, YYYY-MM, YYYY-MM-DD or a time)."
     },
     {
      "name": "scope",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "exercise or programDay."
     },
     {
      "name": "at",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "The time the hint is for."
     },
     {
      "name": "workout",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "Take the time from this workout."
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Hint"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/accounts/{account}/e1rm/{exercise}": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    },
    {
     "name": "exercise",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "An exercise id or name."
    }
   ],
   "get": {
    "summary": "e1RM trend (`ledger e1rm --json`).",
    "parameters": [
     {
      "name": "asOf",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A global position or an ISO 8601 time: the log as it stood then."
     },
     {
      "name": "until",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A training date (YYYY, YYYY-MM, YYYY-MM-DD or a time)."
     },
     {
      "name": "formula",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "epley, brzycki, lombardi, mayhew, oconner, wathan or lander."
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/E1RM"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/accounts/{account}/summary/{workout}": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    },
    {
     "name": "workout",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "A workout id, unique prefix, or `last`."
    }
   ],
   "get": {
    "summary": "Workout summary (`ledger workout summary --json`).",
    "parameters": [
     {
      "name": "asOf",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A global position or an ISO 8601 time: the log as it stood then."
     },
     {
      "name": "until",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A training date (YYYY, YYYY-MM, YYYY-MM-DD or a time)."
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Summary"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/accounts/{account}/prompt/{workout}/{exercise}": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    },
    {
     "name": "workout",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "A workout id, unique prefix, or `last`."
    },
    {
     "name": "exercise",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "An exercise id or name."
    }
   ],
   "get": {
    "summary": "Progression prompt (`ledger prompt --json`).",
    "parameters": [
     {
      "name": "asOf",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A global position or an ISO 8601 time: the log as it stood then."
     },
     {
      "name": "until",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A training date (YYYY, YYYY-MM, YYYY-MM-DD or a time)."
     },
     {
      "name": "range",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "MIN-MAX, e.g. 8-12."
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Prompt"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/accounts/{account}/repcount/{workout}/{exercise}": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    },
    {
     "name": "workout",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "A workout id, unique prefix, or `last`."
    },
    {
     "name": "exercise",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "An exercise id or name."
    }
   ],
   "get": {
    "summary": "Rep counter (`ledger repcount --json`).",
    "parameters": [
     {
      "name": "asOf",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A global position or an ISO 8601 time: the log as it stood then."
     },
     {
      "name": "until",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "A training date (YYYY, YYYY-MM, YYYY-MM-DD or a time)."
     },
     {
      "name": "scope",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "exercise or programDay."
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/RepCount"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/coach/clients": {
   "get": {
    "summary": "A coach's clients (needs an active Coach product).",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "clients": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "accountId": {
              "type": "string"
             },
             "name": {
              "type": "string"
             },
             "lastWorkoutAt": {
              "type": [
               "string",
               "null"
              ]
             },
             "workoutsLast7Days": {
              "type": "integer"
             },
             "recordsLast7Days": {
              "type": "integer"
             }
            },
            "required": [
             "accountId",
             "name",
             "lastWorkoutAt",
             "workoutsLast7Days",
             "recordsLast7Days"
            ]
           }
          }
         },
         "required": [
          "clients"
         ]
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  },
  "/v1/accounts/{account}": {
   "parameters": [
    {
     "name": "account",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "The account id (a UUID)."
    }
   ],
   "delete": {
    "summary": "Erase the account (DOMAIN.md §11), by the account's own token.",
    "responses": {
     "200": {
      "description": "The erasure report.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Erasure"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "503": {
      "$ref": "#/components/responses/Error"
     }
    }
   }
  }
 }
}
"""##
}
