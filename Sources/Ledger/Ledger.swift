import Events
