"""What the published story models compute on the validation stories: numpy and torch only, no presentation."""
