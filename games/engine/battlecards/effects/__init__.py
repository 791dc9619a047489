"""Card behaviour, registered in battlecards.behaviour by the data vocabulary keys."""
